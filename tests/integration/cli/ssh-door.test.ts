import { expect, it } from 'vitest';
import { noSecretService } from '../../support/secret-service.ts';
import { clientOf, startSandbox } from '../core/api/support.ts';
import { startApp, testKeychain, writeProfiles } from '../core/profiles/support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';
import { burrow, tempDir } from './support.ts';

/*
 * `burrow ssh` through the door: while the app runs, a key is signed inside it, through the
 * profile the command names (not the app's active one), and the app keeps the saved certificate
 * at once, as if the window had made it; its renewal goes back through that same profile.
 */

const cleanup = cleanupAfterAll();

it('burrow ssh new and renew run inside the running app, on the profile the command names', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const staging = await startSandbox({ apiKey: 'ssh-door-staging', rateLimit: 'off' });
  const prod = await startSandbox({ apiKey: 'ssh-door-prod', rateLimit: 'off' });
  const prodApi = clientOf(prod).client;
  const stagingApi = clientOf(staging).client;
  cleanup.push(
    () => staging.close(),
    () => prod.close(),
    () => prodApi.close(),
    () => stagingApi.close(),
  );
  await prodApi.sshCertificateAuthorities.create({
    description: 'Prod people',
    private_key_type: 'ed25519',
  });
  const keychain = await testKeychain();
  const dir = await tempDir(cleanup);
  const keys = await tempDir(cleanup);
  const profiles = [
    { id: 'prf_sshdoorstaging', name: 'Staging', baseUrl: staging.url, kind: 'remote' },
    { id: 'prf_sshdoorprod01', name: 'Prod', baseUrl: prod.url, kind: 'remote' },
  ];
  await writeProfiles(dir, profiles, 'prf_sshdoorstaging');
  await keychain.set('prf_sshdoorstaging', 'ssh-door-staging');
  await keychain.set('prf_sshdoorprod01', 'ssh-door-prod');
  cleanup.push(
    () => keychain.delete('prf_sshdoorstaging'),
    () => keychain.delete('prf_sshdoorprod01'),
  );
  const run = (...argv: string[]) =>
    burrow([...argv, '--data-dir', dir, '--verbose'], { keychainService: keychain.service });

  const { burrow: app } = await startApp({ dataDir: dir, secrets: keychain });
  const made = await run(
    'ssh',
    'new',
    'deploy',
    ...['--ca', 'Prod people', '--principal', 'deploy', '--dir', keys, '--profile', 'Prod'],
  );
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toBe('burrow: running inside the Burrow app\n');
  expect(made.stdout).toMatch(/^Made a key pair and a user certificate for deploy, valid until /);
  // The app holds the record the command made, signed through Prod, not the active Staging.
  const saved = app.ssh.listSaved();
  expect(saved.map((s) => [s.profileId, s.principals])).toEqual([
    ['prf_sshdoorprod01', ['deploy']],
  ]);
  expect(await prodApi.sshUserCertificates.listAll()).toHaveLength(1);
  expect(await stagingApi.sshUserCertificates.listAll()).toHaveLength(0);

  const renewed = await run('ssh', 'renew', 'deploy');
  expect(renewed.code, renewed.stderr).toBe(0);
  expect(renewed.stdout).toMatch(/^Renewed a user certificate for deploy/);
  expect(await prodApi.sshUserCertificates.listAll()).toHaveLength(2);
  expect(app.ssh.listSaved()[0]?.renewedAt).not.toBeNull();
});
