import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { burrow, oneLine, tempDir } from './support.ts';
import { REMOTE_PROFILE as PROD } from '../../support/profiles.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

const SERVICE = `burrow-test-${randomBytes(6).toString('hex')}`;

const cleanup = cleanupAfterAll();

it('a damaged settings.json: set aside, said once in one line naming both files, its profiles kept', async () => {
  const dir = await tempDir(cleanup);
  // A hand edit gone wrong: a trailing comma.
  await writeFile(
    join(dir, 'settings.json'),
    `{"profiles":[${JSON.stringify(PROD)}],"activeProfileId":"${PROD.id}",}`,
  );
  const run = () => burrow(['profiles', '--json', '--data-dir', dir], { keychainService: SERVICE });

  const first = await run();
  expect(first.code).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject([{ name: 'Prod', active: true }]);
  const aside = (await readdir(dir)).find((name) => name.startsWith('settings.damaged-'));
  expect(aside).toMatch(/^settings\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.json$/);
  oneLine(first, join(dir, 'settings.json'), join(dir, aside ?? ''), '1 profile recovered');

  const second = await run();
  expect(second.code).toBe(0);
  expect(second.stderr).toBe('');
});

it('a damaged settings.json with no profile left in it: said, then that there are none', async () => {
  const dir = await tempDir(cleanup);
  await writeFile(join(dir, 'settings.json'), '{"profiles": [{"id": "prf_cut');
  const result = await burrow(['sessions', '--data-dir', dir], { keychainService: SERVICE });
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').filter(Boolean)).toEqual([
    expect.stringContaining('no profile could be recovered'),
    expect.stringContaining(`No Burrow profiles in ${dir}`),
  ]);
});
