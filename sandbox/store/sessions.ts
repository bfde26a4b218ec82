import type { ErrorName } from '../../shared/api/errors/errors.ts';
import type {
  TunnelSession,
  TunnelSessionCommandName,
} from '../../shared/api/kinds/tunnel-sessions.ts';
import { Collection, type Page } from './collection.ts';

/** A session as the registry holds it: the representation without uri, its credential as an id. */
export type TunnelSessionRecord = Omit<TunnelSession, 'id' | 'uri' | 'credential'> & {
  readonly id: string;
  readonly credential_id: string;
};

/** The agent behind a session, as the agent endpoint connects it. */
export interface AgentControl {
  /** Resolves when the agent accepted the command, or to the error it (or its absence) makes. */
  command(name: TunnelSessionCommandName): Promise<void | ErrorName>;
  /** Ends the session from the server's side (its credential was deleted); optional. */
  disconnect?(reason: string): void;
}

/**
 * Online tunnel sessions per account. The API only reads and commands them; the agent endpoint
 * adds a session when an agent connects and removes it when it goes.
 */
export interface SessionRegistry {
  add(account: string, session: TunnelSessionRecord, agent: AgentControl): void;
  remove(account: string, sessionId: string): void;
  get(account: string, sessionId: string): TunnelSessionRecord | undefined;
  /** Newest first; undefined when beforeId is unknown. */
  list(account: string, limit: number, beforeId?: string): Page<TunnelSessionRecord> | undefined;
  /** notFound when the account has no such session. */
  command(
    account: string,
    sessionId: string,
    name: TunnelSessionCommandName,
  ): Promise<void | ErrorName>;
  /** Disconnects every session started with the credential; the number of sessions it held. */
  disconnectCredential(account: string, credentialId: string, reason: string): number;
}

type Online = {
  readonly id: string;
  readonly record: TunnelSessionRecord;
  readonly agent: AgentControl;
};

export class InMemorySessionRegistry implements SessionRegistry {
  private readonly byAccount = new Map<string, Collection<Online>>();

  private sessions(account: string): Collection<Online> {
    let sessions = this.byAccount.get(account);
    if (!sessions) {
      sessions = new Collection();
      this.byAccount.set(account, sessions);
    }
    return sessions;
  }

  add(account: string, record: TunnelSessionRecord, agent: AgentControl): void {
    this.sessions(account).insert({ id: record.id, record, agent });
  }

  remove(account: string, sessionId: string): void {
    this.byAccount.get(account)?.delete(sessionId);
  }

  get(account: string, sessionId: string): TunnelSessionRecord | undefined {
    return this.byAccount.get(account)?.get(sessionId)?.record;
  }

  list(account: string, limit: number, beforeId?: string): Page<TunnelSessionRecord> | undefined {
    const page = this.sessions(account).page(limit, beforeId);
    return page && { items: page.items.map((s) => s.record), next: page.next };
  }

  async command(
    account: string,
    sessionId: string,
    name: TunnelSessionCommandName,
  ): Promise<void | ErrorName> {
    const online = this.byAccount.get(account)?.get(sessionId);
    return online ? online.agent.command(name) : 'notFound';
  }

  disconnectCredential(account: string, credentialId: string, reason: string): number {
    const held = [...(this.byAccount.get(account)?.values() ?? [])].filter(
      (online) => online.record.credential_id === credentialId,
    );
    for (const online of held) online.agent.disconnect?.(reason);
    return held.length;
  }
}
