import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import type { ErrorName } from '../../shared/api/errors/errors.ts';
import type { TunnelSessionCommandName } from '../../shared/api/kinds/tunnel-sessions.ts';
import { now } from '../resources/render.ts';
import { newId } from '../store/ids.ts';
import type { AgentControl } from '../store/sessions.ts';
import type { Store } from '../store/store.ts';
import { admit } from './admission.ts';
import {
  AgentMessage,
  CLOSE,
  DEFAULT_REGION,
  parseMessage,
  sessionIp,
  type Refused,
  type Result,
  type ServerMessage,
} from './protocol.ts';

export type ConnectionDeps = {
  readonly store: Store;
  readonly releases: readonly string[];
  readonly commandTimeoutMs: number;
  readonly helloTimeoutMs: number;
};

type Pending = {
  readonly resolve: (outcome: void | ErrorName) => void;
  readonly timer: NodeJS.Timeout;
};

/** A WebSocket close reason is at most 123 bytes. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= 123
    ? text
    : `${bytes
        .subarray(0, 120)
        .toString()
        .replace(/\uFFFD*$/, '')}...`;
}

/**
 * One agent's WebSocket: the hello, the session it starts in the registry, and the commands sent
 * to the agent. The session exists from the accepted hello until the socket closes, not a moment
 * longer.
 */
export class AgentConnection implements AgentControl {
  private session: { readonly account: string; readonly id: string } | undefined;
  private greeted = false;
  private closed = false;
  /** Set once the server decided to close: nothing the agent sends after that counts. */
  private ending = false;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly request: IncomingMessage,
    private readonly deps: ConnectionDeps,
  ) {
    this.helloTimer = setTimeout(
      () => this.fail(CLOSE.helloTimeout, 'no hello in time'),
      deps.helloTimeoutMs,
    );
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('close', () => this.closedNow());
    // A reset connection reports an error before its close; the close does the cleaning up.
    ws.on('error', () => undefined);
  }

  command(name: TunnelSessionCommandName): Promise<void | ErrorName> {
    if (this.closed) return Promise.resolve('agentTimeout');
    const seq = this.seq++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        resolve('agentTimeout');
      }, this.deps.commandTimeoutMs);
      this.pending.set(seq, { resolve, timer });
      this.send({ type: 'command', seq, name });
    });
  }

  disconnect(reason: string): void {
    this.refuse({ code: 'credentialDeleted', message: reason });
  }

  private send(message: ServerMessage): void {
    if (!this.closed) this.ws.send(JSON.stringify(message));
  }

  private fail(code: number, reason: string): void {
    if (this.ending) return;
    this.ending = true;
    clearTimeout(this.helloTimer);
    this.ws.close(code, closeReason(reason));
  }

  private refuse(refusal: Omit<Refused, 'type'>): void {
    this.send({ type: 'refused', ...refusal });
    this.fail(CLOSE.refused, refusal.message);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.ending) return;
    if (isBinary)
      return this.fail(CLOSE.protocolError, 'binary messages are not part of the protocol');
    const parsed = parseMessage(AgentMessage, data.toString());
    if (!parsed.ok) return this.fail(CLOSE.protocolError, parsed.reason);
    const message = parsed.value;
    if (message.type === 'hello') {
      if (this.greeted) return this.fail(CLOSE.protocolError, 'only one hello per connection');
      this.greeted = true;
      clearTimeout(this.helloTimer);
      const admitted = admit(this.deps.store, message);
      if ('code' in admitted) return this.refuse(admitted);
      const id = newId('tunnelSession');
      this.deps.store.sessions.add(
        admitted.account,
        {
          id,
          agent_version: message.version,
          credential_id: admitted.credentialId,
          ip: sessionIp(this.request.socket.remoteAddress ?? ''),
          ...(message.metadata !== undefined && { metadata: message.metadata }),
          os: message.os,
          region: message.region ?? DEFAULT_REGION,
          started_at: now(),
          transport: 'service/v2',
        },
        this,
      );
      this.session = { account: admitted.account, id };
      this.send({ type: 'online', session_id: id, releases: [...this.deps.releases] });
      return;
    }
    if (!this.session) return this.fail(CLOSE.protocolError, 'the first message must be a hello');
    this.settle(message);
  }

  /** A result for a command that already timed out is late, not wrong: it is dropped. */
  private settle(result: Result): void {
    const pending = this.pending.get(result.seq);
    if (!pending) return;
    this.pending.delete(result.seq);
    clearTimeout(pending.timer);
    pending.resolve(result.ok ? undefined : result.error);
  }

  private closedNow(): void {
    this.closed = true;
    clearTimeout(this.helloTimer);
    if (this.session) this.deps.store.sessions.remove(this.session.account, this.session.id);
    // An agent that goes away mid-command has not answered it.
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve('agentTimeout');
    }
    this.pending.clear();
  }
}
