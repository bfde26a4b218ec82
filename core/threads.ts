import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A folder of thread entries built as `npm run build:test` builds them, which the in-process tests
 * name: a thread started from source registers tsx's loader, whose hooks Node 20 runs on a thread
 * the whole process shares, and in a test process that had run many files one such hook, left
 * waiting on an esbuild that was gone, blocked every later import (a CI run hung for good).
 */
export const BUILT_THREADS_ENV = 'BURROW_TEST_BUILT_THREADS';

/**
 * A worker thread on the entry `name` beside the module at `moduleUrl`: `name.js` in a build
 * (the bundler must emit it next to the module that holds the caller's code), `name.ts` from
 * source, which only runs with tsx's loader registered in the new thread first. `workerData` is
 * the thread's `workerData`.
 */
export function startWorker(name: string, moduleUrl: string, workerData?: unknown): Worker {
  const fromSource = moduleUrl.endsWith('.ts');
  const built = process.env[BUILT_THREADS_ENV];
  if (fromSource && built) return new Worker(join(built, `${name}.js`), { workerData });
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, moduleUrl);
  if (!fromSource) return new Worker(entry, { workerData });
  const tsx = pathToFileURL(
    createRequire(moduleUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}
