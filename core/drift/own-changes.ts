import type { AnyEndpoint } from '../../shared/api/catalog/endpoints.ts';
import { KINDS } from '../snapshot/resources/kinds.ts';

const SNAPSHOT_GROUPS: ReadonlySet<string> = new Set(Object.values(KINDS).map((k) => k.group));

/**
 * Whether a call changes what a snapshot (and so a drift baseline) holds: a write to one of its
 * kinds or their modules (`ipPolicies.create`, `tlsEdges.backend.replace`). Reads change nothing;
 * a session's restart changes no configuration.
 */
export function changesConfiguration(endpoint: Pick<AnyEndpoint, 'name' | 'method'>): boolean {
  return endpoint.method !== 'GET' && SNAPSHOT_GROUPS.has(endpoint.name.split('.')[0] ?? '');
}

/**
 * Burrow's own edits of an account, each kept as its baseline by `keep` (a read of the whole
 * account): one read at a time per profile, and the edits made while it runs kept by one more
 * read after it. Ten edits in a row cost two reads, not ten, so a person editing in the window
 * does not spend the drift watch's share of the rate limit.
 */
export function ownChanges(
  keep: (profileId: string) => Promise<void>,
): (profileId: string) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const again = new Map<string, Promise<void>>();
  const run = (profileId: string): Promise<void> => {
    const done = keep(profileId)
      .catch(() => undefined)
      .finally(() => running.delete(profileId));
    running.set(profileId, done);
    return done;
  };
  return (profileId) => {
    const current = running.get(profileId);
    if (current === undefined) return run(profileId);
    // Every edit made during this read waits for the one read after it.
    let next = again.get(profileId);
    if (next === undefined) {
      next = current.then(() => {
        again.delete(profileId);
        return run(profileId);
      });
      again.set(profileId, next);
    }
    return next;
  };
}
