import { createHash } from 'node:crypto';
import type { AccountsConfig } from '../accounts.ts';
import { Account, type User } from './account.ts';
import type { Change } from './collection.ts';
import {
  Persistence,
  snapshotText,
  type JournalChange,
  type SnapshotAccounts,
} from './persistence.ts';
import { STORED_KINDS, type CredentialRecord, type RecordOf, type StoredKind } from './records.ts';
import { InMemorySessionRegistry, type SessionRegistry } from './sessions.ts';
import { Transactions } from './transactions.ts';

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export type Caller = { readonly account: Account; readonly user: User };

/** Checks one loaded record; returns why it is unusable, or undefined. */
export type RecordCheck = (kind: StoredKind, record: unknown) => string | undefined;

type AnyRecord = RecordOf[StoredKind];
/** A collection of any kind, for records the check above has vouched for. */
type AnyCollection = {
  get(id: string): AnyRecord | undefined;
  insert(value: AnyRecord): void;
  replace(value: AnyRecord): void;
  delete(id: string): boolean;
  values(): IterableIterator<AnyRecord>;
};

/**
 * Every account's state, the indexes that find a caller by API key and a credential by token
 * (both by SHA-256, so neither secret is kept in a map), and the persistence behind them.
 *
 * Every change goes through `write`: a synchronous block whose changes are one transaction,
 * undone if the block throws or the data file refuses them (see Transactions).
 */
export class Store {
  readonly accounts = new Map<string, Account>();
  readonly sessions: SessionRegistry = new InMemorySessionRegistry();
  private readonly apiKeys = new Map<string, Caller>();
  private readonly tokens = new Map<string, { account: string; credentialId: string }>();
  /** Accounts found in the data file but absent from the configuration: kept, unreachable. */
  private readonly orphans = new Map<string, Account>();
  private transactions: Transactions;
  private persistence: Persistence | undefined;
  /** Changes made while loading are the data file's own, not new transactions. */
  private loading = false;

  constructor(
    config: AccountsConfig,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    for (const a of config.accounts) {
      const users = new Map(a.users.map((u) => [u.id, { id: u.id, admin: u.admin }]));
      const account = new Account(a.name, a.abuse_reports, users, new Set(a.bots), (...c) =>
        this.changed(...c),
      );
      this.accounts.set(a.name, account);
      for (const u of a.users)
        for (const key of u.api_keys)
          this.apiKeys.set(sha256Hex(key), { account, user: users.get(u.id) ?? u });
    }
    this.transactions = new Transactions(undefined, 0, log);
  }

  callerByApiKey(key: string): Caller | undefined {
    return this.apiKeys.get(sha256Hex(key));
  }

  isAgentToken(secret: string): boolean {
    return this.credentialByToken(secret) !== undefined;
  }

  /** The tunnel credential an agent authtoken belongs to, if any. */
  credentialByToken(secret: string): { account: string; credentialId: string } | undefined {
    return this.tokens.get(sha256Hex(secret));
  }

  /**
   * Runs `block`, whose changes are one transaction, and resolves once they are durable. Rejects
   * (the changes undone) when the block throws or the data file cannot take them.
   */
  write<T>(block: () => T): Promise<Awaited<T>> {
    return this.transactions.write(block);
  }

  /** Locks and loads the data file, and persists every later transaction to it. */
  async attach(path: string, check: RecordCheck): Promise<void> {
    this.loading = true;
    try {
      const { persistence, seq } = await Persistence.open(path, {
        snapshot: (accounts) => this.loadSnapshot(path, accounts, check),
        apply: (change) => this.apply(change, check),
        serialize: (at) => snapshotText(at, this.snapshot()),
      });
      this.persistence = persistence;
      this.transactions = new Transactions(persistence, seq, this.log);
    } finally {
      this.loading = false;
    }
  }

  /** Waits for every pending write, then lets another sandbox have the data file. */
  async close(): Promise<void> {
    await this.transactions.flush();
    const persistence = this.persistence;
    this.persistence = undefined;
    await persistence?.close(this.transactions.lastSeq);
  }

  /** Journals a change, and keeps the token index in step with credentials (undo included). */
  private changed(
    account: Account,
    kind: StoredKind,
    change: Change<AnyRecord>,
    undo: () => void,
  ): void {
    const credential = kind === 'credential';
    if (!this.loading) {
      const entry =
        change.op === 'delete'
          ? { account: account.name, kind, op: 'delete', id: change.previous.id }
          : { account: account.name, kind, op: change.op, record: change.value };
      // Throws outside a write, before anything changed.
      this.transactions.record(entry, () => {
        undo();
        if (credential) this.indexTokens(account, change as Change<CredentialRecord>, 'undo');
      });
    }
    if (credential) this.indexTokens(account, change as Change<CredentialRecord>, 'do');
  }

  private indexTokens(
    account: Account,
    change: Change<CredentialRecord>,
    way: 'do' | 'undo',
  ): void {
    const before = change.op === 'insert' ? undefined : change.previous;
    const after = change.op === 'delete' ? undefined : change.value;
    const [gone, come] = way === 'do' ? [before, after] : [after, before];
    if (gone) this.tokens.delete(gone.token_hash);
    if (come) this.tokens.set(come.token_hash, { account: account.name, credentialId: come.id });
  }

  private accountFor(name: string): Account {
    let account = this.accounts.get(name) ?? this.orphans.get(name);
    if (!account) {
      account = new Account(name, false, new Map(), new Set());
      this.orphans.set(name, account);
    }
    return account;
  }

  private collectionOf(account: string, kind: StoredKind): AnyCollection {
    return this.accountFor(account).collections[kind] as unknown as AnyCollection;
  }

  /** A loaded record, checked unless its account is an orphan (kept as it is). */
  private checked(account: string, kind: StoredKind, record: { id: string }, check: RecordCheck) {
    const problem = this.accounts.has(account) ? check(kind, record) : undefined;
    if (problem) throw new Error(`account "${account}", ${kind} ${record.id}: ${problem}`);
    return record as AnyRecord;
  }

  private loadSnapshot(path: string, accounts: SnapshotAccounts, check: RecordCheck): void {
    for (const [name, kinds] of Object.entries(accounts))
      for (const kind of STORED_KINDS)
        for (const record of kinds[kind] ?? [])
          try {
            this.collectionOf(name, kind).insert(this.checked(name, kind, record, check));
          } catch (error) {
            throw new Error(`data file ${path}: ${(error as Error).message}`, { cause: error });
          }
  }

  private apply(change: JournalChange, check: RecordCheck): void {
    const collection = this.collectionOf(change.account, change.kind);
    const id = change.op === 'delete' ? change.id : change.record.id;
    const exists = collection.get(id) !== undefined;
    if (exists === (change.op === 'insert'))
      throw new Error(
        `${change.op} of ${change.kind} ${id}, which ${exists ? 'exists' : 'does not exist'}`,
      );
    if (change.op === 'delete') collection.delete(id);
    else {
      const record = this.checked(change.account, change.kind, change.record, check);
      if (change.op === 'insert') collection.insert(record);
      else collection.replace(record);
    }
  }

  private snapshot(): SnapshotAccounts {
    const accounts: SnapshotAccounts = {};
    for (const [name, account] of [...this.orphans, ...this.accounts])
      accounts[name] = Object.fromEntries(
        STORED_KINDS.map((kind) => [kind, [...account.collections[kind].values()]]),
      );
    return accounts;
  }
}
