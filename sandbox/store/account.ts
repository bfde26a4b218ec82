import { Collection, type Observer } from './collection.ts';
import { STORED_KINDS, type RecordOf, type StoredKind } from './records.ts';

export type User = { readonly id: string; readonly admin: boolean };

type Collections = { readonly [K in StoredKind]: Collection<RecordOf[K]> };

/** Told of every change to the account's resources (the store journals them). */
export type AccountObserver = (
  account: Account,
  kind: StoredKind,
  ...change: Parameters<Observer<RecordOf[StoredKind]>>
) => void;

/** One account's users and resources; nothing in it is reachable from another account. */
export class Account {
  readonly collections: Collections;

  constructor(
    readonly name: string,
    readonly abuseReports: boolean,
    readonly users: ReadonlyMap<string, User>,
    readonly bots: ReadonlySet<string>,
    observer?: AccountObserver,
  ) {
    this.collections = Object.fromEntries(
      STORED_KINDS.map((kind) => [
        kind,
        new Collection<RecordOf[StoredKind]>(
          observer && ((change, undo) => observer(this, kind, change, undo)),
        ),
      ]),
      // Each kind's collection holds that kind's records: what the mapped type says.
    ) as unknown as Collections;
  }

  /** Whether `id` is a user or bot of this account, i.e. may own a credential. */
  hasOwner(id: string): boolean {
    return this.users.has(id) || this.bots.has(id);
  }
}
