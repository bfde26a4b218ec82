import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { probeKeychain } from '../../../../core/profiles/keychain.ts';
import { testKeychain } from '../../../integration/core/profiles/support.ts';
import { bin } from '../../../support/bins.ts';

it('stores, reads, replaces and deletes a key in the real keychain', async () => {
  const keychain = await testKeychain();
  expect(await probeKeychain(keychain)).toEqual({ available: true });
  expect(await keychain.get('prf_a')).toBeNull();
  await keychain.set('prf_a', 'first-key');
  expect(await keychain.get('prf_a')).toBe('first-key');
  await keychain.set('prf_a', 'second-key');
  expect(await keychain.get('prf_a')).toBe('second-key');
  expect(await keychain.delete('prf_a')).toBe(true);
  expect(await keychain.get('prf_a')).toBeNull();
  expect(await keychain.delete('prf_a')).toBe(false);
});

it('reports a missing Secret Service plainly instead of working around it', async () => {
  // A process whose session bus is nowhere: reading answers "no entry" as if all were well,
  // so only the probe's write can tell, and it must say so in words a person can act on.
  const { stdout } = await promisify(execFile)(process.execPath, [bin('keychain-probe')], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
  });
  const status = JSON.parse(stdout) as { available: boolean; message: string };
  expect(status.available).toBe(false);
  expect(status.message).toMatch(/No keychain is available/);
  expect(status.message).toMatch(/never in a file/);
});
