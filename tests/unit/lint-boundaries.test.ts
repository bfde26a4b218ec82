import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The dependency rules (docs/architecture.md, "The dependency rule") are enforced by oxlint
 * (.oxlintrc.json); this shows that a crossing fails `npm run lint` and that the allowed directions
 * pass. Every case is written as a file at its path under a scratch folder, beside a copy of the
 * repository's config (its folder globs are read from where it lies), and one oxlint run lints them
 * all.
 */
const repo = path.resolve(import.meta.dirname, '../..');

const forbidden: Array<[string, string]> = [
  ['core/api/x.ts', "import 'electron';"],
  ['core/api/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['core/api/x.ts', "import { a } from '../../web/server.ts';"],
  ['core/ipc/x.ts', "import { a } from '../ssh/service.ts';"],
  ['core/ipc/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../core/api/client.ts';"],
  ['sandbox/x.ts', "import 'electron';"],
  ['shared/api/kinds/x.ts', "import { a } from '../../../core/ipc/dispatch.ts';"],
  ['shared/api/values/x.ts', "import { readFileSync } from 'node:fs';"],
  ['shared/api/kinds/x.ts', "import { a } from '../../app/agents.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../shared/app/monitor.ts';"],
  ['shared/app/x.ts', "import { a } from '../node/sync-directory.ts';"],
  ['shared/api/values/x.ts', "import { a } from '../../node/sync-directory.ts';"],
  ['shared/node/x.ts', "import { a } from '../api/catalog/endpoints.ts';"],
  ['shared/node/x.ts', "import { a } from '../../core/errors.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../shared/node/sync-directory.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../core/ipc/dispatch.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../sandbox/index.ts';"],
  ['renderer/src/x.ts', "import { readFileSync } from 'node:fs';"],
  ['renderer/src/x.ts', "import { readFile } from 'node:fs/promises';"],
  ['shared/app/x.ts', "import { readFile } from 'node:fs/promises';"],
  ['renderer/src/x.ts', "import 'electron';"],
  ['web/x.ts', "import 'electron';"],
  ['web/x.ts', "import { a } from '../electron/main.ts';"],
  ['electron/x.ts', "import { a } from '../renderer/src/main.ts';"],
  ['cli/x.ts', "import 'electron';"],
  ['cli/x.ts', "import { a } from '../web/server.ts';"],
  ['cli/x.ts', "import { a } from '../renderer/src/main.ts';"],
];

const allowed: Array<[string, string]> = [
  ['core/api/x.ts', "import { a } from '../../shared/api/catalog/endpoints.ts';"],
  ['core/ipc/x.ts', "import { a } from '../api/errors.ts';"],
  ['core/ipc/x.ts', "import { a } from '../errors.ts';"],
  ['core/ipc/x.ts', "import { a } from './handlers.ts';"],
  ['core/ipc/x.ts', "import { a } from '../../shared/app/ipc/contract.ts';"],
  ['sandbox/http/x.ts', "import { a } from '../../shared/api/catalog/endpoints.ts';"],
  ['shared/app/x.ts', "import { a } from '../api/catalog/endpoints.ts';"],
  ['shared/node/x.ts', "import { open } from 'node:fs';"],
  ['sandbox/store/x.ts', "import { a } from '../../shared/node/sync-directory.ts';"],
  ['core/ssh/x.ts', "import { a } from '../../shared/node/sync-directory.ts';"],
  ['electron/x.ts', "import 'electron';"],
  ['electron/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['electron/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['web/x.ts', "import { a } from '../core/ipc/dispatch.ts';"],
  ['web/x.ts', "import { a } from '../sandbox/index.ts';"],
  ['renderer/src/x.ts', "import { a } from '../../shared/app/ipc/bridge.ts';"],
  ['cli/x.ts', "import { a } from '../core/snapshot/plan/plan.ts';"],
  ['cli/x.ts', "import { a } from '../sandbox/embedded.ts';"],
];

/** The no-restricted-imports messages of each case, by `file: code`. */
const messages = new Map<string, string[]>();
const key = (file: string, code: string) => `${file}: ${code}`;
let scratch = '';

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'burrow-boundaries-'));
  copyFileSync(path.join(repo, '.oxlintrc.json'), path.join(scratch, '.oxlintrc.json'));
  // Cases sharing a folder get their own file name; the rules look at the folder and specifier.
  // Each also has a `debugger;`, which every file oxlint read reports: a case it skipped or could
  // not parse would otherwise pass as "allowed".
  const cases = [...forbidden, ...allowed].map(([file, code], i) => {
    const at = path.join(path.dirname(file), `case-${i}.ts`);
    mkdirSync(path.join(scratch, path.dirname(at)), { recursive: true });
    writeFileSync(path.join(scratch, at), `${code}\ndebugger;\n`);
    return { at, name: key(file, code) };
  });
  const oxlint = path.join(repo, 'node_modules/oxlint/bin/oxlint');
  const run = spawnSync(
    process.execPath,
    [oxlint, '-c', '.oxlintrc.json', '-f', 'json', ...cases.map((c) => c.at)],
    { cwd: scratch, encoding: 'utf8' },
  );
  if (run.error) throw run.error;
  const { diagnostics } = JSON.parse(run.stdout) as {
    diagnostics: Array<{ code: string; filename: string; message: string; help?: string }>;
  };
  for (const { at, name } of cases) {
    const found = diagnostics.filter((d) => path.normalize(d.filename) === at);
    if (!found.some((d) => d.code === 'eslint(no-debugger)')) {
      throw new Error(`oxlint did not lint ${name}`);
    }
    messages.set(
      name,
      found
        .filter((d) => d.code === 'eslint(no-restricted-imports)')
        .map((d) => `${d.message} ${d.help ?? ''}`),
    );
  }
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('dependency boundaries', () => {
  it.each(forbidden)('%s may not: %s', (file, code) => {
    expect(messages.get(key(file, code))).not.toEqual([]);
  });

  it.each(allowed)('%s may: %s', (file, code) => {
    expect(messages.get(key(file, code))).toEqual([]);
  });
});
