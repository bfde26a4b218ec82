import { afterEach, expect, it, vi } from 'vitest';
import { RENEWAL_CHECK_MS, watchRenewals } from '../../../../../core/ssh/renewal/watch.ts';
import { createSshService, type SshApi } from '../../../../../core/ssh/service.ts';
import type { SshCertificateExpiring } from '../../../../../shared/app/ipc/ssh.ts';
import { HOUR, savedCertificate, T0 } from '../fixtures.ts';

const record = savedCertificate({ id: 'saved-1' });

afterEach(() => vi.useRealTimers());

it('tells a due certificate once per validity window, at start and on each check', async () => {
  vi.useFakeTimers();
  let clock = T0 + 15 * HOUR;
  const values = new Map<string, unknown>([['ssh.savedCertificates', [record]]]);
  const store = {
    get: (k: string) => values.get(k),
    set: (k: string, v: unknown) => values.set(k, v),
  };
  const ssh = createSshService({ api: {} as SshApi, store, now: () => clock });
  const told: SshCertificateExpiring[] = [];
  const stop = watchRenewals(ssh, (expiring) => told.push(expiring));
  await vi.advanceTimersByTimeAsync(0);
  expect(told).toEqual([]);

  clock = T0 + 16 * HOUR;
  await vi.advanceTimersByTimeAsync(RENEWAL_CHECK_MS);
  expect(told).toEqual([
    {
      certId: 'saved-1',
      name: 'id-cert.pub',
      expiresAt: record.validUntil,
      dueAt: '2026-11-23T16:00:00.000Z',
      expired: false,
      key: `saved-1@${record.validUntil}`,
      message: 'The certificate /home/a/.ssh/id-cert.pub expires in 8 h; renew it now.',
    },
  ]);

  // Still due on the next checks: the policy has it already, so nothing more.
  await vi.advanceTimersByTimeAsync(3 * RENEWAL_CHECK_MS);
  expect(told).toHaveLength(1);
  stop();
  await ssh.close();
});
