import { createHash } from 'node:crypto';
import type { Drift } from '../../shared/app/ipc/drift.ts';
import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import type { ApiClient } from '../api/client.ts';
import type { SnapshotAccount } from '../snapshot/account.ts';
import { canonical } from '../snapshot/fields.ts';
import { changesOf, planSnapshot, type Plan } from '../snapshot/plan.ts';
import type { SnapshotService } from '../snapshot/service.ts';
import { planView } from '../snapshot/view.ts';
import { hashSecrets, secretsChangedIn } from './secrets.ts';
import { driftSummary } from './words.ts';

/** What a comparison found, apart from when it was first found. */
export type Found = Omit<Drift, 'foundAt'> & { readonly plan: Plan };

/** The account's client, counting the list pages it reads: a check's cost, as it is reported. */
function counted(client: ApiClient): { client: ApiClient; requests: () => number } {
  let requests = 0;
  const listAll: ApiClient['listAll'] = (name, options = {}) =>
    client.listAll(name, {
      ...options,
      // Called once a page: each page is one request (a retried one is not counted twice).
      onProgress: (loaded, pages) => {
        requests += 1;
        options.onProgress?.(loaded, pages);
      },
    });
  return {
    client: Object.assign(Object.create(client) as ApiClient, { listAll }),
    requests: () => requests,
  };
}

/** The account as a baseline holds it: read in full at background priority, secrets hashed. */
export async function readHashed(
  service: SnapshotService,
  account: SnapshotAccount,
  key: Buffer,
  signal?: AbortSignal,
): Promise<{ document: SnapshotDocument; requests: number }> {
  const { client, requests } = counted(account.client);
  const document = await service.read(
    { ...account, client },
    { withSecrets: true, ...(signal !== undefined && { signal }) },
  );
  return { document: hashSecrets(document, key), requests: requests() };
}

/**
 * Baseline → live, as the snapshot plan of the live account applied onto the baseline, pruning:
 * a create is new in live, a delete gone from it. Null when they are the same.
 */
export function compare(baseline: SnapshotDocument, live: SnapshotDocument): Found | null {
  const plan = planSnapshot(live, baseline, { prune: true });
  const changes = changesOf(plan);
  if (changes.length === 0) return null;
  // Blockers are about writing live onto the baseline, which nobody does: not shown.
  const view = { ...planView(plan), blockers: [] };
  const id = createHash('sha256')
    .update(JSON.stringify(canonical(changes)))
    .digest('hex')
    .slice(0, 16);
  return {
    id,
    summary: driftSummary(changes),
    changes: view,
    secretsChanged: secretsChangedIn(changes),
    plan,
  };
}
