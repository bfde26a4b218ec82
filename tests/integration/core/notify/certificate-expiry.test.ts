import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openConfStore } from '../../../../core/store.ts';
import type { IpcEvent } from '../../../../shared/app/ipc/contract.ts';
import type { SavedCertificate } from '../../../../shared/app/ssh/results.ts';
import { startApp } from '../profiles/support.ts';

/*
 * Certificate-expiry notifications in the whole core: saved certificates in the settings store,
 * the renewal watch, the notification policy under the person's switch.
 */

const HOUR = 3_600_000;

function saved(id: string, validAfter: number, validUntil: number, lead: number | null) {
  return {
    id,
    kind: 'user',
    caId: 'sshca_1',
    certificateId: `sucrt_${id}`,
    publicKey: 'ssh-ed25519 AAAA',
    principals: ['alice'],
    criticalOptions: {},
    extensions: {},
    validAfter: new Date(validAfter).toISOString(),
    validUntil: new Date(validUntil).toISOString(),
    privateKeyPath: `/home/a/.ssh/${id}`,
    publicKeyPath: `/home/a/.ssh/${id}.pub`,
    certificatePath: `/home/a/.ssh/${id}-cert.pub`,
    leadTimeSeconds: lead,
    savedAt: new Date(validAfter).toISOString(),
    renewedAt: null,
  } satisfies SavedCertificate;
}

async function appWith(certificates: SavedCertificate[], certificateExpiry: boolean) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-cert-'));
  const store = await openConfStore(dataDir);
  store.set('ssh.savedCertificates', certificates);
  store.set('settings', { notifications: { certificateExpiry } });
  return startApp({ dataDir });
}

const now = Date.now();
const certificates = [
  // Past two thirds of its day: due.
  saved('due', now - 20 * HOUR, now + 4 * HOUR, null),
  // Its lead time (an hour before the end) is hours away: not yet.
  saved('lead', now - 20 * HOUR, now + 4 * HOUR, 3600),
  // Just renewed: a new window, nothing to say.
  saved('renewed', now - 60_000, now + 24 * HOUR - 60_000, null),
];

const of = (events: IpcEvent[], name: IpcEvent['name']) => events.filter((e) => e.name === name);

it('tells a due certificate as a notification that opens it, honouring lead times', async () => {
  const { events } = await appWith(certificates, true);
  await expect.poll(() => of(events, 'notification').length, { timeout: 5_000 }).toBe(1);
  expect(of(events, 'notification')[0]?.payload).toMatchObject({
    kind: 'certificateExpiry',
    title: 'Certificate expiring',
    body: 'due-cert.pub expires within a day.',
    target: { type: 'certificate', certId: 'due' },
  });
  expect(of(events, 'ssh.certificateExpiring').map((e) => e.payload)).toMatchObject([
    { certId: 'due' },
  ]);
});

it('shows nothing when the person switched certificate-expiry notifications off', async () => {
  const { events } = await appWith(certificates, false);
  await expect.poll(() => of(events, 'ssh.certificateExpiring').length).toBe(1);
  expect(of(events, 'notification')).toEqual([]);
});
