import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileToWrite } from '../../../../core/ssh/files/atomic-write.ts';
import type { SavedCertificate } from '../../../../shared/app/ssh/results.ts';

export const HOUR = 3_600_000;
export const T0 = Date.parse('2026-11-23T00:00:00Z');

/** A saved user certificate valid for a day from T0, with `over` changed. */
export function savedCertificate(over: Partial<SavedCertificate> = {}): SavedCertificate {
  return {
    id: 'local-1',
    kind: 'user',
    caId: 'sshca_1',
    certificateId: 'sucrt_1',
    publicKey: 'ssh-ed25519 AAAA',
    principals: ['alice'],
    criticalOptions: {},
    extensions: {},
    validAfter: new Date(T0).toISOString(),
    validUntil: new Date(T0 + 24 * HOUR).toISOString(),
    privateKeyPath: '/home/a/.ssh/id',
    publicKeyPath: '/home/a/.ssh/id.pub',
    certificatePath: '/home/a/.ssh/id-cert.pub',
    leadTimeSeconds: null,
    savedAt: new Date(T0).toISOString(),
    renewedAt: null,
    ...over,
  };
}

/** The three files of the key `name` in `dir`, each holding its role's word and `content`. */
export const keyFileSet = (dir: string, content: string, name = 'id'): FileToWrite[] => [
  { path: path.join(dir, name), role: 'private-key', content: `private ${content}` },
  { path: path.join(dir, `${name}.pub`), role: 'public-key', content: `public ${content}` },
  { path: path.join(dir, `${name}-cert.pub`), role: 'certificate', content: `cert ${content}` },
];

/** What each of `files` holds now; undefined where there is no file. */
export const contentsOf = (files: readonly FileToWrite[]) =>
  Promise.all(files.map((f) => readFile(f.path, 'utf8').catch(() => undefined)));
