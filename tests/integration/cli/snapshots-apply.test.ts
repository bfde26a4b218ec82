import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  policiesSnapshot,
  slowWrites,
  startBurrow,
  twoAccounts,
  until,
} from '../core/snapshot/accounts.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

/*
 * `burrow apply` in real processes on one sandbox holding two accounts: a journal is its
 * account's alone, and one apply runs per account at a time.
 */

const cleanup = cleanupAfterAll();

async function snapshotFile(n: number): Promise<{ dir: string; file: string }> {
  const dir = await tempDir(cleanup);
  const file = join(dir, 'policies.json');
  await writeFile(file, JSON.stringify(policiesSnapshot(n)));
  return { dir, file };
}

/**
 * Two accounts, and `burrow apply` of a snapshot of `n` policies started on the first one, the
 * sandbox taking `slowMs` over each write so that the test can act while it runs.
 */
async function applyStarted(n: number, slowMs: number) {
  const accounts = await twoAccounts(cleanup);
  const { dir, file } = await snapshotFile(n);
  const argv = ['apply', file, '--yes', '--api-url', accounts.sandbox.url, '--data-dir', dir];
  slowWrites(accounts.sandbox, slowMs);
  return { ...accounts, argv, first: startBurrow(argv, accounts.keys[0]) };
}

describe('burrow apply, account by account', () => {
  it('killed after 3 of 8 on one account, the same snapshot on another is a new apply', async () => {
    const { sandbox, keys, policies, argv, first } = await applyStarted(8, 500);
    await until(async () => (await policies(0)).length >= 3);
    first.child.kill('SIGKILL');
    expect((await first.finished).signal).toBe('SIGKILL');
    const made = (await policies(0)).length;
    expect(made).toBeLessThan(8);
    sandbox.faults.clear();

    const other = await burrow([...argv, '--json'], { env: { BURROW_API_KEY: keys[1] } });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).not.toContain('Carrying on');
    expect(JSON.parse(other.stdout)).toMatchObject({ created: 8, resumed: false });
    expect(await policies(1)).toHaveLength(8);

    const again = await burrow([...argv, '--json'], { env: { BURROW_API_KEY: keys[0] } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Carrying on an apply that stopped');
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 8, resumed: true });
    expect((await policies(0)).sort()).toEqual((await policies(1)).sort());
  });

  it('two at once on one account: one applies, the other is refused naming it', async () => {
    // Each write of the first held 3 s, released once the second has ended: the second always
    // meets the first at work, however slowly it starts.
    const { sandbox, keys, policies, argv, first } = await applyStarted(10, 3000);
    await until(async () => (await policies(0)).length >= 1);
    const second = await startBurrow(argv, keys[0]).finished;
    sandbox.faults.clear();
    const done = await first.finished;
    expect(done.code, done.stderr).toBe(0);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^burrow: Another apply to \\S+ is running \\(burrow apply, pid ${String(first.child.pid)}, since \\d\\d:\\d\\d:\\d\\d\\)\\n$`,
      ),
    );
    expect(await policies(0)).toHaveLength(10);
  });

  it('tells of an apply of another snapshot that stopped, and carries on only that one', async () => {
    const { sandbox, keys, policies } = await twoAccounts(cleanup);
    const { dir, file } = await snapshotFile(4);
    const env = { BURROW_API_KEY: keys[0] };
    const on = ['--api-url', sandbox.url, '--data-dir', dir];
    sandbox.faults.add({ kind: 'status', status: 500, method: 'POST', count: 1 });
    expect((await burrow(['apply', file, '--yes', ...on], { env })).code).toBe(1);
    const other = join(dir, 'other.json');
    await writeFile(other, JSON.stringify(policiesSnapshot(5)));
    const told = await burrow(['apply', other, '--yes', ...on], { env });
    expect(told.code, told.stderr).toBe(0);
    expect(told.stderr).toMatch(
      /^An apply of policies\.json to \S+ stopped on \d+ \w+ \(0 of 4 changes made\): applying that snapshot again carries it on\.\n$/,
    );
    expect(await policies(0)).toHaveLength(5);
  });
});

describe('burrow export and plan: files', () => {
  it('-o a folder, or into a folder that is not there: one line, no temporary file named', async () => {
    const { sandbox, keys } = await twoAccounts(cleanup);
    const dir = await tempDir(cleanup);
    const env = { BURROW_API_KEY: keys[0] };
    const folder = join(dir, 'out');
    await mkdir(folder);
    const intoFolder = await burrow(['export', '-o', folder, '--api-url', sandbox.url], { env });
    expect(intoFolder.code).toBe(1);
    oneLine(intoFolder, `Cannot write ${folder}: it is a folder`);
    expect(intoFolder.stderr).not.toContain('.tmp');
    const missing = join(dir, 'nowhere', 'a.json');
    const intoMissing = await burrow(['export', '-o', missing, '--api-url', sandbox.url], { env });
    expect(intoMissing.code).toBe(1);
    oneLine(
      intoMissing,
      `Cannot write ${missing}: the folder ${join(dir, 'nowhere')} does not exist`,
    );
    expect(intoMissing.stderr).not.toContain('.tmp');
    expect(await readdir(dir)).toEqual(['out']);
  });

  it('reads a snapshot that starts with a UTF-8 byte-order mark', async () => {
    const { sandbox, keys } = await twoAccounts(cleanup);
    const dir = await tempDir(cleanup);
    const file = join(dir, 'bom.json');
    await writeFile(file, `\uFEFF${JSON.stringify(policiesSnapshot(2))}`);
    const planned = await burrow(['plan', file, '--api-url', sandbox.url, '--data-dir', dir], {
      env: { BURROW_API_KEY: keys[0] },
    });
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toMatch(/2 to create/);
  });
});
