import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { burrow as run, oneLine, tempDir, type RunOptions } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';
import { writeProfiles } from '../core/profiles/support.ts';

/** Never the person's own keychain entries: the Local sandbox's key goes under a test service. */
const SERVICE = `burrow-test-${randomBytes(6).toString('hex')}`;
const burrow = (argv: string[], options: RunOptions = {}) =>
  run(argv, { keychainService: SERVICE, ...options });

const LOCAL = { id: 'prf_local0001', name: 'Local sandbox', baseUrl: '', kind: 'local' };
const PROD = {
  id: 'prf_prod00001',
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  kind: 'remote',
};

const cleanup = cleanupAfterAll();
let dir: string;

/** An app's data folder as Burrow leaves it: settings.json with two profiles, Local active. */
beforeEach(async () => {
  dir = await tempDir(cleanup);
  await writeProfiles(dir, [LOCAL, PROD], LOCAL.id);
});

describe('burrow with the app profiles', () => {
  it('lists the profiles of BURROW_DATA_DIR, the active one marked', async () => {
    const result = await burrow(['profiles', '--json'], { env: { BURROW_DATA_DIR: dir } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([
      { name: 'Local sandbox', kind: 'local', active: true, key: true },
      { name: 'Prod', address: 'https://api.example.com', active: false },
    ]);
    const text = await burrow(['profiles', '--data-dir', dir]);
    expect(text.stdout).toMatch(/^\*\s+Local sandbox\s/m);
    expect(text.stdout).toMatch(/^\s+Prod\s+https:\/\/api\.example\.com\s/m);
  });

  it('the Local sandbox (active) runs in the process for the command, demo agents and all', async () => {
    const result = await burrow(['sessions', '--json', '--data-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const agents = (JSON.parse(result.stdout) as { agent: string }[]).map((s) => s.agent);
    expect(agents.sort()).toEqual(['build-box', 'laptop', 'office-pc']);
    // Its data stays in the data folder, and the command let go of it.
    expect(existsSync(join(dir, 'local-sandbox', 'sandbox.json'))).toBe(true);
    expect(existsSync(join(dir, 'local-sandbox', 'sandbox.json.lock'))).toBe(false);
    const exported = await burrow(['export', '--profile', 'local SANDBOX', '--data-dir', dir]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({
      source: { apiUrl: `burrow-local-sandbox:${LOCAL.id}`, profileName: 'Local sandbox' },
    });
  });

  it('a profile without a key, a profile nobody has, no profiles at all: one line each', async () => {
    const noKey = await burrow(['sessions', '--profile', 'prod', '--data-dir', dir]);
    expect(noKey.code).toBe(1);
    oneLine(noKey, 'keychain');
    const unknown = await burrow(['sessions', '--profile', 'Staging', '--data-dir', dir]);
    expect(unknown.code).toBe(1);
    oneLine(unknown, 'No profile is named "Staging"');
    const empty = await tempDir(cleanup);
    const none = await burrow(['profiles', '--data-dir', empty]);
    expect(none.code).toBe(1);
    oneLine(none, `No Burrow profiles in ${empty}`, 'BURROW_API_KEY');
    expect(existsSync(join(empty, 'settings.json'))).toBe(false);
    // Settings without profiles (never the app's own state): still none, and none made.
    await writeFile(join(empty, 'settings.json'), JSON.stringify({ settings: {} }));
    const unset = await burrow(['export', '--data-dir', empty]);
    expect(unset.code).toBe(1);
    oneLine(unset, `No Burrow profiles in ${empty}`);
    expect(JSON.parse(await readFile(join(empty, 'settings.json'), 'utf8'))).toEqual({
      settings: {},
    });
  });
});
