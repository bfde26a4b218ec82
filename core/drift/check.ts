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

/**
 * The account's client, its lists read page by page, pages counted: within half the window, or
 * when a person waits on the read, as a person's call.
 */
function paced(
  client: ApiClient,
  signal: AbortSignal | undefined,
  personWaits: boolean,
): { client: ApiClient; requests: () => number } {
  let requests = 0;
  const room = () => (personWaits ? Promise.resolve() : roomInWindow(client, signal));
  const listAll = (async (name: ListName, { onProgress, ...request }: ListAllOptions = {}) => {
    const items: unknown[] = [];
    let pages = 0;
    const asked = personWaits ? { ...request, priority: 'interactive' as const } : request;
    await room();
    for await (const page of client.pages(name, asked)) {
      pages += 1;
      requests += 1;
      items.push(...page.items);
      onProgress?.(items.length, pages);
      if (page.nextPageUri !== null) await room();
    }
    return items;
  }) as ApiClient['listAll'];
  return {
    client: Object.assign(Object.create(client) as ApiClient, { listAll }),
    requests: () => requests,
  };
}

/**
 * The account as a baseline holds it, secrets hashed: read in full at background priority, or as
 * a person's call when one waits on it.
 */
export async function readHashed(
  service: SnapshotService,
  account: SnapshotAccount,
  key: Buffer,
  signal?: AbortSignal,
  /** A person waits on it (a baseline kept): read as their call, not once the window drains. */
  personWaits = false,
): Promise<{ document: SnapshotDocument; requests: number }> {
  const { client, requests } = paced(account.client, signal, personWaits);
  const document = await service.read(
    { ...account, client },
    { withSecrets: true, ...(signal !== undefined && { signal }) },
  );
  return { document: hashSecrets(document, key), requests: requests() };
}
