import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox } from '../core/api/support.ts';
import { testKeychain } from '../core/profiles/support.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { burrow, oneLine, tempDir } from './support.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it("a profile's key comes from the keychain, as the app left it; a key gone is one line", async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const sandbox = await startSandbox({ apiKey: 'cli-keychain', rateLimit: 'off', demo: true });
  cleanup.push(() => sandbox.close());
  const keychain = await testKeychain();
  const dir = await tempDir(cleanup);
  const profile = { id: 'prf_keyed0001', name: 'Staging', baseUrl: sandbox.url, kind: 'remote' };
  await writeFile(
    join(dir, 'settings.json'),
    JSON.stringify({ profiles: [profile], activeProfileId: profile.id }),
  );
  await keychain.set(profile.id, 'cli-keychain');
  cleanup.push(() => keychain.delete(profile.id));
  const run = (...argv: string[]) =>
    burrow([...argv, '--data-dir', dir], { keychainService: keychain.service });

  const profiles = await run('profiles', '--json');
  expect(JSON.parse(profiles.stdout)).toMatchObject([{ name: 'Staging', key: true }]);
  const sessions = await run('sessions', '--json');
  expect(sessions.code).toBe(0);
  expect((JSON.parse(sessions.stdout) as unknown[]).length).toBe(3);

  await keychain.delete(profile.id);
  expect(JSON.parse((await run('profiles', '--json')).stdout)).toMatchObject([{ key: false }]);
  const gone = await run('sessions');
  expect(gone.code).toBe(1);
  oneLine(gone, 'The API key of "Staging" is not in the keychain any more');
});
