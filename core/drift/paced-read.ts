import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import type { ApiClient } from '../api/client.ts';
import { sleep } from '../../shared/node/clock.ts';
import { AbortError } from '../api/errors.ts';
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

/** How a read goes: stopped by `signal`; waiting for room in the window unless a person waits. */
export type ReadPace = {
  readonly signal?: AbortSignal | undefined;
  /** A person waits on the read (a baseline kept): read as their call, not once the window drains. */
  readonly personWaits?: boolean;
};

async function roomInWindow(client: ApiClient, pace: ReadPace): Promise<void> {
  for (;;) {
    const { used, capacity } = client.budget();
    if (used < capacity * SHARE_OF_WINDOW) return;
    // On the window's own clock: the one that frees room in it.
    await sleep(
      client.governor.clock,
      PACE_MS,
      pace.signal,
      () => new AbortError('reading the account'),
    );
  }
}

/**
 * The account's client, its lists read page by page, pages counted: within half the window, or
 * when a person waits on the read, as a person's call.
 */
function paced(client: ApiClient, pace: ReadPace): { client: ApiClient; requests: () => number } {
  let requests = 0;
  const personWaits = pace.personWaits === true;
  const room = () => (personWaits ? Promise.resolve() : roomInWindow(client, pace));
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
  pace: ReadPace,
): Promise<{ document: SnapshotDocument; requests: number }> {
  const { client, requests } = paced(account.client, pace);
  const { signal } = pace;
  const document = await service.read(
    { ...account, client },
    { withSecrets: true, ...(signal !== undefined && { signal }) },
  );
  return { document: hashSecrets(document, key), requests: requests() };
}
