import { describe, expect, it } from 'vitest';
import {
  putSaved,
  readSaved,
  removeSaved,
} from '../../../../../core/ssh/saved-certificates/store.ts';
import type { KeyValueStore } from '../../../../../core/store.ts';
import type { SavedCertificate } from '../../../../../shared/app/ssh/results.ts';

function memoryStore(initial: Record<string, unknown> = {}): Pick<KeyValueStore, 'get' | 'set'> {
  const values = new Map(Object.entries(initial));
  return { get: (key) => values.get(key), set: (key, value) => values.set(key, value) };
}

const record = (id: string): SavedCertificate => ({
  id,
  kind: 'user',
  caId: 'sshca_1',
  certificateId: 'sucrt_1',
  publicKey: 'ssh-ed25519 AAAA',
  principals: [],
  criticalOptions: {},
  extensions: {},
  validAfter: '2026-11-23T00:00:00.000Z',
  validUntil: '2026-11-24T00:00:00.000Z',
  privateKeyPath: null,
  publicKeyPath: '/k.pub',
  certificatePath: '/k-cert.pub',
  leadTimeSeconds: null,
  savedAt: '2026-11-23T00:00:00.000Z',
  renewedAt: null,
});

describe('saved certificates', () => {
  it('adds, replaces by id and removes', () => {
    const store = memoryStore();
    putSaved(store, record('a'));
    putSaved(store, record('b'));
    putSaved(store, { ...record('a'), certificateId: 'sucrt_2' });
    expect(readSaved(store).map((r) => [r.id, r.certificateId])).toEqual([
      ['b', 'sucrt_1'],
      ['a', 'sucrt_2'],
    ]);
    removeSaved(store, 'b');
    expect(readSaved(store).map((r) => r.id)).toEqual(['a']);
  });

  it('skips a record damaged by hand instead of losing the others, and reads nothing from junk', () => {
    const store = memoryStore({ 'ssh.savedCertificates': [record('a'), { id: 'b' }, 'junk'] });
    expect(readSaved(store).map((r) => r.id)).toEqual(['a']);
    expect(readSaved(memoryStore({ 'ssh.savedCertificates': 'junk' }))).toEqual([]);
    expect(readSaved(memoryStore())).toEqual([]);
  });
});
