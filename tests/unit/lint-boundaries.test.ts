import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The dependency rules of README.md ("The folders") are enforced by ESLint; this shows that a
 * crossing fails `npm run lint` and that the allowed directions pass. Every case is written as a
 * file at its path under a scratch folder, and the repository's config lints them all in one run:
 * ESLint's start-up is most of the cost, and once per case took half a minute on a busy machine.
 */
const repo = path.resolve(import.meta.dirname, '../..');

const forbidden: Array<[string, string]> = [
  ['core/api/x.ts', "import 'electron';"],
  ['core/api/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['core/api/x.ts', "import { a } from '../../web/server.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../core/api/client.ts';"],
  ['sandbox/x.ts', "import 'electron';"],
  ['shared/api/x.ts', "import { a } from '../../core/ipc/dispatch.ts';"],
  ['shared/api/x.ts', "import { readFileSync } from 'node:fs';"],
  ['shared/api/x.ts', "import { a } from '../app/agents.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../shared/app/monitor.ts';"],
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
  ['shared/app/x.ts', "import { a } from '../api/index.ts';"],
  ['electron/x.ts', "import 'electron';"],
  ['electron/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['electron/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['web/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['web/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../shared/app/ipc/bridge.ts';"],
  ['cli/x.ts', "import { a } from '../core/snapshot/plan.ts';"],
  ['cli/x.ts', "import { a } from '../sandbox/embedded.ts';"],
];

/** The no-restricted-imports messages of each case, by `file: code`. */
const messages = new Map<string, string[]>();
const key = (file: string, code: string) => `${file}: ${code}`;
let scratch = '';

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'burrow-boundaries-'));
  // Cases sharing a folder get their own file name; the rules look at the folder and specifier.
  const cases = [...forbidden, ...allowed].map(([file, code], i) => {
    const at = path.join(scratch, path.dirname(file), `case-${i}.ts`);
    mkdirSync(path.dirname(at), { recursive: true });
    writeFileSync(at, `${code}\n`);
    return { at, name: key(file, code) };
  });
  // With the config named outright, its globs are read from cwd: the scratch folder.
  const eslint = new ESLint({
    cwd: scratch,
    overrideConfigFile: path.join(repo, 'eslint.config.js'),
  });
  const results = await eslint.lintFiles(cases.map((c) => c.at));
  const byPath = new Map(results.map((result) => [result.filePath, result]));
  for (const { at, name } of cases) {
    const found = byPath.get(at)?.messages;
    // A case ESLint skipped or could not parse would pass as "allowed" without this.
    if (!found || found.some((m) => m.fatal)) throw new Error(`ESLint did not lint ${name}`);
    messages.set(
      name,
      found.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message),
    );
  }
  // Loading ESLint and its parsers: seconds on a busy machine, not a hang.
}, 30_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('dependency boundaries', () => {
  it.each(forbidden)('%s may not: %s', (file, code) => {
    expect(messages.get(key(file, code))).not.toEqual([]);
  });

  it.each(allowed)('%s may: %s', (file, code) => {
    expect(messages.get(key(file, code))).toEqual([]);
  });
});
