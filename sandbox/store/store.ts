import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AccountsConfig } from '../accounts.ts';
import { Account, type User } from './account.ts';
import { DataFile } from './data-file.ts';
import { STORED_KINDS, type RecordOf, type StoredKind } from './records.ts';
import { InMemorySessionRegistry, type SessionRegistry } from './sessions.ts';

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export type Caller = { readonly account: Account; readonly user: User };

/** Checks one loaded record; returns why it is unusable, or undefined. */
export type RecordCheck = (kind: StoredKind, record: unknown) => string | undefined;

const FORMAT = 'burrow-sandbox-state';
const PersistedState = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(1),
  accounts: z.record(
    z.string(),
    z.partialRecord(z.enum(STORED_KINDS), z.array(z.looseObject({ id: z.string() }))),
  ),
});
type PersistedState = z.output<typeof PersistedState>;

/**
 * Every account's state, the indexes that find a caller by API key and a credential by token
 * (both by SHA-256, so neither secret is kept in a map), and the persistence behind them.
 */
export class Store {
  readonly accounts = new Map<string, Account>();
  readonly sessions: SessionRegistry = new InMemorySessionRegistry();
  private readonly apiKeys = new Map<string, Caller>();
  private readonly tokens = new Map<string, { account: string; credentialId: string }>();
  /** Accounts found in the data file but absent from the configuration: kept, unreachable. */
  private orphans: PersistedState['accounts'] = {};
  private dataFile: DataFile | undefined;

  constructor(config: AccountsConfig) {
    for (const a of config.accounts) {
      const users = new Map(a.users.map((u) => [u.id, { id: u.id, admin: u.admin }]));
      const account = new Account(a.name, a.abuse_reports, users, new Set(a.bots));
      this.accounts.set(a.name, account);
      for (const u of a.users)
        for (const key of u.api_keys)
          this.apiKeys.set(sha256Hex(key), { account, user: users.get(u.id) ?? u });
    }
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

  indexToken(account: Account, credentialId: string, tokenHash: string): void {
    this.tokens.set(tokenHash, { account: account.name, credentialId });
  }

  unindexToken(tokenHash: string): void {
    this.tokens.delete(tokenHash);
  }

  /** Loads and validates the data file (if any) and persists every later commit to it. */
  async attach(path: string, check: RecordCheck): Promise<void> {
    await DataFile.removeLeftovers(path);
    const json = await DataFile.read(path);
    if (json !== undefined) this.load(path, json, check);
    this.dataFile = new DataFile(path, () => JSON.stringify(this.snapshot()));
  }

  /** Resolves once the state as of now is durable (at once without a data file). */
  commit(): Promise<void> {
    return this.dataFile ? this.dataFile.commit() : Promise.resolve();
  }

  async flush(): Promise<void> {
    await this.dataFile?.flush();
  }

  private load(path: string, json: unknown, check: RecordCheck): void {
    const parsed = PersistedState.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `data file ${path} is not a sandbox state file: ${parsed.error.issues[0]?.message}`,
      );
    for (const [name, kinds] of Object.entries(parsed.data.accounts)) {
      const account = this.accounts.get(name);
      if (!account) {
        this.orphans[name] = kinds;
        continue;
      }
      for (const kind of STORED_KINDS) {
        for (const record of kinds[kind] ?? []) {
          const problem = check(kind, record);
          if (problem)
            throw new Error(
              `data file ${path}: account "${name}", ${kind} ${record.id}: ${problem}`,
            );
          // The check above is what makes the record one of its kind.
          const collection = account.collections[kind] as unknown as {
            insert(value: RecordOf[StoredKind]): void;
          };
          collection.insert(record as unknown as RecordOf[StoredKind]);
          if (kind === 'credential') {
            const credential = record as unknown as RecordOf['credential'];
            this.indexToken(account, credential.id, credential.token_hash);
          }
        }
      }
    }
  }

  private snapshot(): PersistedState {
    const accounts: PersistedState['accounts'] = { ...this.orphans };
    for (const [name, account] of this.accounts)
      accounts[name] = Object.fromEntries(
        STORED_KINDS.map((kind) => [kind, [...account.collections[kind].values()]]),
      );
    return { format: FORMAT, version: 1, accounts };
  }
}
