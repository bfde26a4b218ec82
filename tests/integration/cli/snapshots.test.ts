import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startAccount, type Sandbox } from '../core/api/support.ts';
import { freePort } from '../../support/free-port.ts';
import { seedAccount } from '../core/snapshot/seed.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';
import { writeProfiles } from '../core/profiles/support.ts';

const SECRETS = ['webhook-s3cret', 'gh-s3cret', 'oidc-s3cret'];
const cleanup = cleanupAfterAll();
let source: Sandbox;
let dir: string;

const account = (key: string) => startAccount(key, cleanup);

/** The command line and environment that reach `sandbox`, the data folder the test's own. */
const on = (sandbox: Sandbox, ...argv: string[]) => ({
  argv: [...argv, '--api-url', sandbox.url, '--data-dir', dir],
  env: { BURROW_API_KEY: sandbox.apiKey },
});

async function run(sandbox: Sandbox, argv: string[], answer?: string) {
  const { argv: full, env } = on(sandbox, ...argv);
  return burrow(full, { env, ...(answer !== undefined && { answer }) });
}

beforeAll(async () => {
  dir = await tempDir(cleanup);
  const seeded = await account('cli-source');
  source = seeded.sandbox;
  await seedAccount(seeded.api);
});

describe('burrow export, plan and apply', () => {
  it('exports to stdout without secrets, as a snapshot', async () => {
    const result = await run(source, ['export']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { format: string; containsSecrets: boolean };
    expect(document).toMatchObject({ format: 'burrow-snapshot', containsSecrets: false });
    for (const secret of SECRETS) expect(result.stdout).not.toContain(secret);
    expect(result.stderr).toBe('');
  });

  it('writes a file with secrets 0600 and says so; without them, not 0600', async () => {
    const withSecrets = join(dir, 'with.json');
    const result = await run(source, ['export', '--with-secrets', '-o', withSecrets]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/holds secrets.*0600/);
    expect((await stat(withSecrets)).mode & 0o777).toBe(0o600);
    for (const secret of SECRETS) expect(await readFile(withSecrets, 'utf8')).toContain(secret);

    const plain = join(dir, 'plain.json');
    expect((await run(source, ['export', '-o', plain])).code).toBe(0);
    expect((await stat(plain)).mode & 0o077).not.toBe(0);
  });

  it('a file it cannot put in place: one line, exit 1, no temporary file left', async () => {
    const folder = await tempDir(cleanup);
    const taken = join(folder, 'taken.json');
    await mkdir(taken);
    const result = await run(source, ['export', '-o', taken]);
    expect(result.code).toBe(1);
    oneLine(result, taken);
    expect(await readdir(folder)).toEqual(['taken.json']);
  });

  it('round trip: plan (2, secrets masked), refused without --yes, apply, plan again (0)', async () => {
    const file = join(dir, 'round.json');
    expect((await run(source, ['export', '--with-secrets', '-o', file])).code).toBe(0);
    const { sandbox: empty } = await account('cli-empty');

    const planned = await run(empty, ['plan', file, '--json']);
    expect(planned.code).toBe(2);
    const plan = JSON.parse(planned.stdout) as {
      changes: boolean;
      counts: { create: number; update: number };
      steps: { action: string; name: string }[];
    };
    expect(plan.changes).toBe(true);
    expect(plan.counts.create).toBeGreaterThan(20);
    expect(plan.steps.every((s) => s.action === 'create')).toBe(true);
    for (const secret of SECRETS) expect(planned.stdout).not.toContain(secret);
    expect(planned.stdout).toContain('********');

    const readable = await run(empty, ['plan', file]);
    expect(readable.code).toBe(2);
    expect(readable.stdout).toMatch(/^\+ create ipPolicy\//m);
    expect(readable.stdout).toMatch(/to create, 0 to update, 0 to delete, 0 unchanged/);
    for (const secret of SECRETS) expect(readable.stdout).not.toContain(secret);

    const refused = await run(empty, ['apply', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^burrow: burrow apply asks for confirmation.*pass --yes\n$/);
    expect((await run(empty, ['plan', file])).code).toBe(2);

    const declined = await run(empty, ['apply', file], 'n\n');
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain('Apply cancelled');
    expect((await run(empty, ['plan', file])).code).toBe(2);

    const applied = await run(empty, ['apply', file, '--yes', '--json']);
    expect(applied.code).toBe(0);
    const result = JSON.parse(applied.stdout) as { created: number; resumed: boolean };
    expect(result).toMatchObject({ created: plan.counts.create, resumed: false });
    // The plan went to stderr, secrets masked, so that stdout stays one JSON document.
    for (const secret of SECRETS) expect(applied.stderr).not.toContain(secret);

    const again = await run(empty, ['plan', file, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ changes: false, steps: [] });
    const nothing = await run(empty, ['apply', file]);
    expect(nothing).toMatchObject({ code: 0, stderr: '' });
    expect(nothing.stdout).toContain('Nothing to apply');
  });

  it('progress and time left on stderr only when it is a terminal', async () => {
    const file = join(dir, 'progress.json');
    expect((await run(source, ['export', '--with-secrets', '-o', file])).code).toBe(0);
    const { sandbox: quiet } = await account('cli-quiet');
    const plain = await run(quiet, ['apply', file, '--yes']);
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    const { sandbox: shown } = await account('cli-progress');
    const { argv, env } = on(shown, 'apply', file, '--yes');
    const tty = await burrow(argv, { env, stderrIsTTY: true });
    expect(tty.code).toBe(0);
    // Each status rewrites the line in place: back to its start, erased.
    expect(tty.stderr).toContain('\r\x1b[K[1/');
    expect(tty.stderr).toMatch(/\[\d+\/\d+\] create \S+ · about \d+ s left/);
    expect(tty.stderr).toMatch(/Reading .*ipPolicy/);
    expect(tty.stdout).not.toContain('\r');
  });

  it('a snapshot without its secrets, applied where they are needed: blocked before any call', async () => {
    const file = join(dir, 'no-secrets.json');
    expect((await run(source, ['export', '-o', file])).code).toBe(0);
    const { sandbox: empty } = await account('cli-blocked');
    const result = await run(empty, ['apply', file, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Blocked: nothing can be applied');
    const lines = result.stderr.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe('burrow: Nothing was applied: the plan is blocked');
    expect(lines.slice(1).join('\n')).toMatch(
      /oidc\.client_secret: secret missing from the snapshot/,
    );
    const plan = JSON.parse((await run(empty, ['plan', file, '--json'])).stdout) as {
      counts: { unchanged: number };
    };
    expect(plan.counts.unchanged).toBe(0);
  });

  it('applies after a "y" on a terminal', async () => {
    const file = join(dir, 'yes.json');
    expect((await run(source, ['export', '--with-secrets', '-o', file])).code).toBe(0);
    const { sandbox: empty } = await account('cli-yes');
    const applied = await run(empty, ['apply', file], 'y\n');
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('[y/N]');
    expect(applied.stdout).toMatch(/Applied to .*created, 0 updated, 0 deleted, 0 unchanged\./);
    expect((await run(empty, ['plan', file])).code).toBe(0);
  });

  it('a failed step: one line with the API error, then the same command carries on', async () => {
    const file = join(dir, 'resume.json');
    expect((await run(source, ['export', '--with-secrets', '-o', file])).code).toBe(0);
    const { sandbox: target } = await account('cli-resume');
    target.faults.add({ kind: 'status', status: 500, method: 'POST', pathPrefix: '/edges/tls' });
    const failed = await run(target, ['apply', file, '--yes']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^burrow: create tlsEdge\/\S+ failed after \d+ step\(s\) done: .*\n/,
    );
    expect(failed.stderr).toContain('Run the same command again');
    target.faults.clear();
    const resumed = await run(target, ['apply', file, '--yes', '--json']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('Carrying on an apply that stopped');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true });
    expect((await run(target, ['plan', file])).code).toBe(0);
  });

  it("a journal's half-written copy, left by a kill -9, goes with the journal", async () => {
    const file = join(dir, 'leftover.json');
    expect((await run(source, ['export', '--with-secrets', '-o', file])).code).toBe(0);
    const { sandbox: target } = await account('cli-leftover');
    const journals = join(dir, 'leftover-data');
    const argv = ['apply', file, '--yes', '--api-url', target.url, '--data-dir', journals];
    const env = { BURROW_API_KEY: target.apiKey };
    target.faults.add({ kind: 'status', status: 500, method: 'POST', pathPrefix: '/edges/tls' });
    expect((await burrow(argv, { env })).code).toBe(1);
    const [journal] = await readdir(join(journals, 'snapshots'));
    // What saveJournal leaves when killed between writing its temporary file and the rename.
    await writeFile(join(journals, 'snapshots', `${journal}.0123456789ab.tmp`), '{"plan":');
    target.faults.clear();
    expect((await burrow(argv, { env })).code).toBe(0);
    expect(await readdir(join(journals, 'snapshots'))).toEqual([]);
  });

  it('a snapshot that is not one: one line naming the field, exit 1', async () => {
    const file = join(dir, 'round.json');
    const bad = join(dir, 'bad.json');
    const document = JSON.parse(await readFile(file, 'utf8')) as { version: number };
    await writeFile(bad, JSON.stringify({ ...document, version: 9 }));
    const result = await run(source, ['plan', bad]);
    expect(result.code).toBe(1);
    oneLine(result, 'bad.json', 'version');
  });
});

describe('burrow plan --from-profile', () => {
  it('plans another profile of the app against the target: changes (2), then none (0)', async () => {
    const data = await tempDir(cleanup);
    const local = { id: 'prf_local0001', name: 'Local sandbox', baseUrl: '', kind: 'local' };
    await writeProfiles(data, [local], local.id);
    const { sandbox: target } = await account('cli-from-profile');
    // Never the person's own keychain entries: the Local sandbox's key goes under a test service.
    const keychainService = `burrow-test-${randomBytes(6).toString('hex')}`;
    const onTarget = (...argv: string[]) =>
      burrow([...argv, '--data-dir', data, '--api-url', target.url], {
        env: { BURROW_API_KEY: target.apiKey },
        keychainService,
      });

    const planned = await onTarget('plan', '--from-profile', 'local sandbox', '--json');
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(2);
    const plan = JSON.parse(planned.stdout) as { counts: { create: number; update: number } };
    expect(plan.counts.create).toBeGreaterThan(0);

    const file = join(data, 'local.json');
    const exported = await burrow(['export', '--with-secrets', '-o', file, '--data-dir', data], {
      keychainService,
    });
    expect(exported.code).toBe(0);
    expect((await onTarget('apply', file, '--yes')).code).toBe(0);
    const again = await onTarget('plan', '--from-profile', 'Local sandbox');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 to create, 0 to update, 0 to delete, \d+ unchanged\.\n$/);

    const nobody = await onTarget('plan', '--from-profile', 'Nobody');
    expect(nobody.code).toBe(1);
    oneLine(nobody, 'No profile is named "Nobody"');
  });
});

describe('burrow errors', () => {
  it('a bad key: one line with the API code and operation id, exit 1', async () => {
    const result = await burrow(['export', '--api-url', source.url], {
      env: { BURROW_API_KEY: 'not-the-key' },
    });
    expect(result.code).toBe(1);
    oneLine(result, 'ERR_SERVICE_', 'op_');
    expect(result.stdout).toBe('');
  });

  it('an unreachable address: one line, exit 1', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await burrow(['sessions', '--api-url', url], { env: { BURROW_API_KEY: 'k' } });
    expect(result.code).toBe(1);
    oneLine(result, 'Could not reach 127.0.0.1');
  });

  it('--api-url without BURROW_API_KEY, and --api-key: one line each, exit 1', async () => {
    const missing = await burrow(['sessions', '--api-url', source.url]);
    expect(missing.code).toBe(1);
    oneLine(missing, 'BURROW_API_KEY');
    const onLine = await burrow(['sessions', '--api-url', source.url, '--api-key', 'x']);
    expect(onLine.code).toBe(1);
    oneLine(onLine, 'no API key on the command line', 'BURROW_API_KEY');
  });

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['plan', 'f.json', '--frob'], 'unknown option --frob'],
    [['sessions', '--prune'], 'burrow sessions takes no --prune'],
    [['plan'], 'burrow plan needs FILE'],
    [['plan', 'f.json', '--from-profile', 'Prod'], 'give FILE or --from-profile, not both'],
    [['apply', 'f.json', '--from-profile', 'Prod'], 'burrow apply takes no --from-profile'],
    [['restart', 'build-box', '--restart'], 'burrow restart takes no --restart'],
    [[], 'no command given'],
    [
      ['sessions', '--watch', '--interval', '1'],
      '--interval must be a number of seconds, at least 2',
    ],
    // Past 2^31 ms a timer fires at once: a watch would poll without a pause.
    [['sessions', '--watch', '--interval', '1e9'], 'at most 86400'],
    [['sessions', '--watch', '--interval', 'Infinity'], 'at most 86400'],
    [['sessions', '--interval', '3'], '--interval goes with --watch'],
    // Empty, --output and --data-dir would name the current folder.
    [['export', '-o', ''], '--output needs a value'],
    [['profiles', '--data-dir', ''], '--data-dir needs a value'],
    [['ssh', 'sign', 'k.pub', '--principal', 'a', '--principal', ''], '--principal needs a value'],
  ])('burrow %j: one line and a usage hint, exit 1', async (argv, message) => {
    const result = await burrow(argv);
    expect(result.code).toBe(1);
    oneLine(result, message, '--help');
  });

  it('--help for the whole and for each command', async () => {
    const whole = await burrow(['--help']);
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(whole.stdout).toMatch(/^usage: burrow COMMAND/);
    const apply = await burrow(['apply', '--help']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/^usage: burrow apply FILE/);
    expect(apply.stdout).toContain('--prune');
  });
});
