import type { ApiClient } from '../../api/client.ts';
import { AbortError } from '../../api/errors.ts';
import { sleep, type Clock } from '../../../shared/node/clock.ts';
import type { SnapshotKind } from '../../../shared/app/snapshot-document.ts';
import { createForm } from '../export/export.ts';
import { KINDS, type Resource } from '../resources/kinds.ts';

/** Whether `actual` holds everything `wanted` says: objects key by key, the rest equal. */
function holds(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted))
    return (
      Array.isArray(actual) &&
      actual.length === wanted.length &&
      wanted.every((w, i) => holds(actual[i], w))
    );
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(wanted).every(([key, w]) =>
      holds((actual as Record<string, unknown>)[key], w),
    );
  }
  return actual === wanted;
}

export type Lookup = {
  readonly client: Pick<ApiClient, 'call' | 'listAll'>;
  readonly kind: SnapshotKind;
  /** The create body that was sent, references as ids. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly edgeId?: string;
  /** Ids that are not this create's: the target's before the apply, and what the apply made. */
  readonly known: ReadonlySet<string>;
  /** When the create was sent, as the journal says (the wall clock's ms); unknown, no wait. */
  readonly sentAt: number | undefined;
  /** The wall clock `sentAt` was written by, and the timers of the waits between looks. */
  readonly now: () => number;
  readonly clock: Pick<Clock, 'setTimer'>;
  readonly signal?: AbortSignal;
};

/**
 * How long after a create was sent the service may still be making it: its answer never came
 * (the process was killed, the connection lost), and an RSA key, for one, takes it seconds.
 */
export const IN_FLIGHT_MS = 5_000;
/** How often it is looked for meanwhile: each look is one list of its kind. */
export const LOOK_AGAIN_MS = 500;

/**
 * The resource a create made before the apply stopped, if it made one: a resource of its kind
 * that the account did not hold when planned, that no other step made, holding the create body.
 * A POST is never sent twice without this look-up coming back empty, again and again until
 * IN_FLIGHT_MS after the first was sent: one still on its way lands meanwhile, not after a second.
 */
export async function findCreated(lookup: Lookup): Promise<string | undefined> {
  // A mark from the future (the clock set back since) waits no longer than a create sent now.
  const until = Math.min(lookup.sentAt ?? -Infinity, lookup.now()) + IN_FLIGHT_MS;
  for (;;) {
    const found = await lookOnce(lookup);
    if (found !== undefined || lookup.now() >= until) return found;
    await sleep(
      lookup.clock,
      LOOK_AGAIN_MS,
      lookup.signal,
      () => new AbortError(`${KINDS[lookup.kind].group}.list`),
    );
  }
}

async function lookOnce(lookup: Lookup): Promise<string | undefined> {
  const { client, kind, signal } = lookup;
  const call = client.call as (name: string, request: object) => Promise<unknown>;
  const listAll = client.listAll as (name: string, options: object) => Promise<Resource[]>;
  const candidates =
    kind === 'httpsEdgeRoute'
      ? (((await call('httpsEdges.get', { params: { id: lookup.edgeId }, signal })) as Resource)[
          'routes'
        ] as Resource[])
      : await listAll(`${KINDS[kind].group}.list`, { signal });
  const found = candidates.find(
    (resource) => !lookup.known.has(resource.id) && holds(createForm(kind, resource), lookup.body),
  );
  return found?.id;
}
