import { Collection } from './collection.ts';
import { STORED_KINDS, type RecordOf, type StoredKind } from './records.ts';

export type User = { readonly id: string; readonly admin: boolean };

type Collections = { readonly [K in StoredKind]: Collection<RecordOf[K]> };

function emptyCollections(): Collections {
  return Object.fromEntries(STORED_KINDS.map((kind) => [kind, new Collection()])) as Collections;
}

/** One account's users and resources; nothing in it is reachable from another account. */
export class Account {
  readonly collections: Collections = emptyCollections();

  constructor(
    readonly name: string,
    readonly abuseReports: boolean,
    readonly users: ReadonlyMap<string, User>,
    readonly bots: ReadonlySet<string>,
  ) {}

  /** Whether `id` is a user or bot of this account, i.e. may own a credential. */
  hasOwner(id: string): boolean {
    return this.users.has(id) || this.bots.has(id);
  }
}
