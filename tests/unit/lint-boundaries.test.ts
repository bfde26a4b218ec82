import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rules of README.md ("The folders") are enforced by ESLint; this shows that a
 * crossing fails `npm run lint` and that the allowed directions pass, by linting source text as
 * if it stood at a given path of the repository.
 */
const eslint = new ESLint();

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const forbidden: Array<[string, string]> = [
  ['core/api/x.ts', "import 'electron';"],
  ['core/api/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['core/api/x.ts', "import { a } from '../../web/server.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../core/api/client.ts';"],
  ['sandbox/x.ts', "import 'electron';"],
  ['shared/api/x.ts', "import { a } from '../../core/ipc/dispatch.ts';"],
  ['shared/api/x.ts', "import { readFileSync } from 'node:fs';"],
  ['renderer/src/x.ts', "import { a } from '../../core/ipc/dispatch.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['renderer/src/x.ts', "import { readFileSync } from 'node:fs';"],
  ['renderer/src/x.ts', "import 'electron';"],
  ['web/x.ts', "import 'electron';"],
  ['web/x.ts', "import { a } from '../electron/main.ts';"],
  ['electron/x.ts', "import { a } from '../renderer/src/main.ts';"],
  ['cli/x.ts', "import 'electron';"],
  ['cli/x.ts', "import { a } from '../web/server.ts';"],
  ['cli/x.ts', "import { a } from '../renderer/src/main.ts';"],
];

const allowed: Array<[string, string]> = [
  ['core/api/x.ts', "import { a } from '../../shared/api/index.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../shared/api/index.ts';"],
  ['electron/x.ts', "import 'electron';"],
  ['electron/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['electron/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['web/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['web/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../shared/ipc/bridge.ts';"],
  ['cli/x.ts', "import { a } from '../core/snapshot/plan.ts';"],
  ['cli/x.ts', "import { a } from '../sandbox/embedded.ts';"],
];

// The first lint loads ESLint and its parsers: seconds on a busy machine, not a hang.
describe('dependency boundaries', { timeout: 30_000 }, () => {
  it.each(forbidden)('%s may not: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).not.toEqual([]);
  });

  it.each(allowed)('%s may: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
