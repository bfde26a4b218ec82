import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../api/client.ts';
import type { ListAllOptions, ListName } from '../api/types.ts';
import type { SnapshotAccount } from '../snapshot/account.ts';
import type { SnapshotService } from '../snapshot/service.ts';
import { hashSecrets } from './secrets.ts';

/**
 * Drift reads while the key's window is at most half used: the monitor's polls (background too)
 * and a person's clicks keep the other half, however large the account.
 */
const SHARE_OF_WINDOW = 0.5;
const PACE_MS = 250;

async function roomInWindow(client: ApiClient, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const { used, capacity } = client.budget();
    if (used < capacity * SHARE_OF_WINDOW) return;
    await sleep(PACE_MS, undefined, signal === undefined ? {} : { signal });
  }
}

/** The account's client, its lists read page by page within half the window, pages counted. */
function paced(
  client: ApiClient,
  signal?: AbortSignal,
): { client: ApiClient; requests: () => number } {
  let requests = 0;
  const listAll = (async (name: ListName, { onProgress, ...request }: ListAllOptions = {}) => {
    const items: unknown[] = [];
    let pages = 0;
    await roomInWindow(client, signal);
    for await (const page of client.pages(name, request)) {
      pages += 1;
      requests += 1;
      items.push(...page.items);
      onProgress?.(items.length, pages);
      if (page.nextPageUri !== null) await roomInWindow(client, signal);
    }
    return items;
  }) as ApiClient['listAll'];
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
  const { client, requests } = paced(account.client, signal);
  const document = await service.read(
    { ...account, client },
    { withSecrets: true, ...(signal !== undefined && { signal }) },
  );
  return { document: hashSecrets(document, key), requests: requests() };
}
