import { expect, it } from 'vitest';
import { keychainProfile } from '../core/profiles/support.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { burrow, oneLine } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

const cleanup = cleanupAfterAll();

it("a profile's key comes from the keychain, as the app left it; a key gone is one line", async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { keychain, dir, profile } = await keychainProfile(cleanup, 'cli-keychain', { demo: true });
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
