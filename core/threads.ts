import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread on the entry `name` beside the module at `moduleUrl`: `name.js` in a build
 * (the bundler must emit it next to the module that holds the caller's code), `name.ts` from
 * source, which only runs with tsx's loader registered in the new thread first. `workerData` is
 * the thread's `workerData`.
 */
export function startWorker(name: string, moduleUrl: string, workerData?: unknown): Worker {
  const fromSource = moduleUrl.endsWith('.ts');
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
