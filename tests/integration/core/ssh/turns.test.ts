/**
 * Saves of one key name take turns, against a real sandbox over loopback: a renewal in flight
 * while the name is generated again, and two replacing saves at once, end with one whole set on
 * disk (checked with ssh-keygen) and its record. A save killed part-way (a real child process)
 * is taken back by the next save of the name, and no copy of a private key stays.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import type { WriteHooks } from '../../../../core/ssh/files/atomic-write.ts';
import { SshError, type SshApi, type SshService } from '../../../../core/ssh/service.ts';
import type { GenerateRequest } from '../../../../shared/app/ssh/requests.ts';
import { currentUser, makeKeyPair, sshKeygen } from '../../../support/openssh.ts';
import { rejection as rejectionOf } from '../../../support/rejection.ts';
import { killSaveAt, sideFiles } from './killed-save.ts';
import { startSshWorld, type SshWorld } from './support.ts';

let world: SshWorld | undefined;
let home: string;
let caId: string;
let service: SshService;
/** The next signature waits for this before it is asked for. */
let holdNextSigning: Promise<unknown> | undefined;
let beforeCommit: WriteHooks['beforeCommit'];

/** The client, whose next user certificate waits for `holdNextSigning`. */
const holding = (client: ApiClient): SshApi => ({
  sshCertificateAuthorities: client.sshCertificateAuthorities,
  sshHostCertificates: client.sshHostCertificates,
  sshUserCertificates: {
    create: async (...args: Parameters<ApiClient['sshUserCertificates']['create']>) => {
      const hold = holdNextSigning;
      holdNextSigning = undefined;
      await hold;
      return client.sshUserCertificates.create(...args);
    },
  },
});

beforeAll(async () => {
  world = await startSshWorld('burrow-ssh-turns', {
    api: holding,
    writeHooks: { beforeCommit: (target, i) => beforeCommit?.(target, i) },
  });
  ({ home, caId, service } = world);
});

afterAll(() => world?.close());

const ssh = (file: string) => path.join(home, '.ssh', file);
const keyOnly = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');
/** `promise` settled, or `ms` gone by, whichever comes first; never a rejection. */
const settledOrAfter = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.catch(() => undefined), sleep(ms)]);

function generate(name: string, over: Partial<GenerateRequest['target']> = {}) {
  return service.generateKeyAndCertificate({
    target: { name, ...over },
    certificate: { caId, principals: [currentUser], validity: { preset: '1h' } },
  });
}

/** NAME, NAME.pub and NAME-cert.pub are of one key, its record says so, and no copy is left. */
async function expectWholeSet(name: string) {
  const publicKey = keyOnly(await readFile(ssh(`${name}.pub`), 'utf8'));
  const ofPrivateKey = await sshKeygen('-y', '-f', ssh(name));
  expect(keyOnly(ofPrivateKey)).toBe(publicKey);
  const certificate = await service.decodeCertificate({ path: ssh(`${name}-cert.pub`) });
  expect(certificate.publicKey).toBe(publicKey);
  const records = service.listSaved().filter((s) => s.certificatePath === ssh(`${name}-cert.pub`));
  expect(records.map((r) => keyOnly(r.publicKey))).toEqual([publicKey]);
  expect(sideFiles(await readdir(ssh('')))).toEqual([]);
}

describe('one key name at a time', () => {
  it('a renewal in flight while the name is generated again leaves a certificate of the key on disk', async () => {
    const first = await generate('raced');
    let regenerated = () => {};
    // The renewal's signature waits until the new key is saved (when saves take turns, a while).
    holdNextSigning = settledOrAfter(new Promise<void>((r) => (regenerated = r)), 1000);
    const renewing = service.renew(first.saved.id);
    const regenerating = generate('raced', { overwrite: true }).finally(regenerated);
    const [renewal, regeneration] = await Promise.allSettled([renewing, regenerating]);
    expect(regeneration.status).toBe('fulfilled');
    // The renewal went first, or it learnt that its key is gone; never a silent success.
    if (renewal.status === 'rejected') {
      expect(renewal.reason).toBeInstanceOf(SshError);
      expect((renewal.reason as SshError).code).toMatch(/^(unknown-saved|key-changed)$/);
    }
    await expectWholeSet('raced');
  });

  it('two replacing saves of one name at once leave one whole set and its record', async () => {
    await generate('twice');
    let paused = false;
    let saves: Promise<unknown>[] = [];
    // The first save to put its second file in place lets the other one run meanwhile.
    beforeCommit = async (_target, i) => {
      if (i !== 1 || paused) return;
      paused = true;
      await settledOrAfter(Promise.race(saves), 1000);
    };
    try {
      saves = [generate('twice', { overwrite: true }), generate('twice', { overwrite: true })];
      const results = await Promise.allSettled(saves);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    } finally {
      beforeCommit = undefined;
    }
    await expectWholeSet('twice');
  });

  it('a renewal refuses when the key beside the certificate is not the one it certifies', async () => {
    const made = await generate('replaced_outside');
    const certificate = await readFile(ssh('replaced_outside-cert.pub'), 'utf8');
    await rm(ssh('replaced_outside'));
    await rm(ssh('replaced_outside.pub'));
    await makeKeyPair(ssh(''), 'replaced_outside');
    const error = await rejectionOf(service.renew(made.saved.id), SshError);
    expect(error.code).toBe('key-changed');
    expect(error.message).toContain(ssh('replaced_outside.pub'));
    expect(await readFile(ssh('replaced_outside-cert.pub'), 'utf8')).toBe(certificate);
    expect(service.listSaved().find((s) => s.id === made.saved.id)).toEqual(made.saved);
  });
});

describe('a save killed part-way', () => {
  beforeAll(() => mkdir(ssh(''), { recursive: true, mode: 0o700 }));
  const garbage = (name: string) =>
    [
      { path: ssh(name), role: 'private-key', content: 'private half' },
      { path: ssh(`${name}.pub`), role: 'public-key', content: 'public half' },
      { path: ssh(`${name}-cert.pub`), role: 'certificate', content: 'cert half' },
    ] as const;

  it('of a new key: the next save of the name succeeds, and leaves no copy of a private key', async () => {
    await killSaveAt(garbage('killed'), { overwrite: false, at: 2 });
    expect(sideFiles(await readdir(ssh('')))).not.toEqual([]);
    await generate('killed');
    await expectWholeSet('killed');
  });

  it('of a new key: asking which files exist finds none of its half set, and no copy', async () => {
    await killSaveAt(garbage('killed_asked'), { overwrite: false, at: 1 });
    const existing = await service.existingFiles({ name: 'killed_asked' });
    expect(existing.files.map((f) => f.exists)).toEqual([false, false, false]);
    expect(sideFiles(await readdir(ssh('')))).toEqual([]);
  });

  it('replacing a key: the old set comes back before the renewal, and no copy stays', async () => {
    const made = await generate('killed_replacing');
    const privateKey = await readFile(ssh('killed_replacing'), 'utf8');
    await killSaveAt(garbage('killed_replacing'), { overwrite: true, at: 2 });
    await service.renew(made.saved.id);
    expect(await readFile(ssh('killed_replacing'), 'utf8')).toBe(privateKey);
    await expectWholeSet('killed_replacing');
  });
});
