import { createHmac, randomBytes } from 'node:crypto';
import type { SnapshotDocument, SnapshotEntry } from '../../shared/app/snapshot-document.ts';
import { SNAPSHOT_KINDS } from '../../shared/app/snapshot-document.ts';
import type { SecretStore } from '../profiles/keychain.ts';
import {
  getPath,
  isSecretValue,
  secretPaths,
  withPath,
  withoutPath,
} from '../snapshot/resources/fields.ts';
import type { PlanStep } from '../snapshot/plan/plan.ts';

type Json = Record<string, unknown>;

/** What a kept secret reads as in a baseline: enough to tell it changed, never to give it back. */
const HASHED = 'hmac-sha256:';

/** The keychain entry of this install's hashing key, beside the profiles' API keys. */
const DRIFT_KEY_ACCOUNT = 'burrow-drift-key';

/**
 * This install's key for hashing secrets, made on first use. It lives in the keychain, not in the
 * data folder: a copied data folder then holds hashes nobody can test guesses against.
 */
async function driftKey(secrets: SecretStore): Promise<Buffer> {
  const kept = await secrets.get(DRIFT_KEY_ACCOUNT);
  if (kept !== null && /^[0-9a-f]{64}$/.test(kept)) return Buffer.from(kept, 'hex');
  const key = randomBytes(32);
  await secrets.set(DRIFT_KEY_ACCOUNT, key.toString('hex'));
  return key;
}

/** The key, asked of the keychain once; a keychain that failed is asked again next time. */
export function keyOnce(secrets: SecretStore): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () =>
    (key ??= driftKey(secrets).catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}

const isHashed = (value: unknown) => typeof value === 'string' && value.startsWith(HASHED);

function mapEntries(
  document: SnapshotDocument,
  each: (fields: Json) => Json,
  containsSecrets: boolean,
): SnapshotDocument {
  const resources = Object.fromEntries(
    SNAPSHOT_KINDS.map((kind) => [
      kind,
      document.resources[kind].map((entry): SnapshotEntry => ({
        ...entry,
        fields: each(entry.fields),
      })),
    ]),
  ) as SnapshotDocument['resources'];
  return { ...document, containsSecrets, resources };
}

/** `document` (an export with secrets) with each secret replaced by its keyed hash. */
export function hashSecrets(document: SnapshotDocument, key: Buffer): SnapshotDocument {
  const hash = (value: string) => HASHED + createHmac('sha256', key).update(value).digest('hex');
  return mapEntries(
    document,
    (fields) =>
      secretPaths(fields).reduce((out, path) => {
        const value = getPath(out, path);
        return isSecretValue(value) && !isHashed(value) ? withPath(out, path, hash(value)) : out;
      }, fields),
    false,
  );
}

/** A baseline as a snapshot to apply: hashes are no secrets, so they are left out. */
export function withoutHashes(document: SnapshotDocument): SnapshotDocument {
  return mapEntries(
    document,
    (fields) =>
      secretPaths(fields).reduce(
        (out, path) => (isHashed(getPath(out, path)) ? withoutPath(out, path) : out),
        fields,
      ),
    false,
  );
}

/**
 * The resources of a baseline → live plan whose secret is not the baseline's any more: a hash
 * cannot give the baseline's back.
 */
export function secretsChangedIn(steps: readonly PlanStep[]): string[] {
  const names = steps.flatMap((step) => {
    if (step.action !== 'update') return [];
    const changed = step.changes.some(({ path, from, to }) => {
      const before = { [path]: from };
      const after = { [path]: to };
      return secretPaths(before).some((secret) => {
        const kept = getPath(before, secret);
        return isSecretValue(kept) && kept !== getPath(after, secret);
      });
    });
    return changed ? [step.name] : [];
  });
  return [...new Set(names)];
}
