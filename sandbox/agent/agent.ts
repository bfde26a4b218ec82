import { WebSocket } from 'ws';
import type { TunnelSessionCommandName } from '../../shared/api/kinds/tunnel-sessions.ts';
import {
  CLOSE,
  parseMessage,
  ServerMessage,
  type AgentCommandError,
  type AgentOs,
  type Hello,
  type Refused,
} from '../tunnel/protocol.ts';
import { Updater } from './updates.ts';

export type AgentConfig = {
  /** The agent endpoint's WebSocket URL (`agentUrlOf(apiUrl)`). */
  readonly url: string;
  readonly authtoken: string;
  readonly version: string;
  readonly os: AgentOs;
  readonly region?: string | undefined;
  readonly metadata?: string | undefined;
  readonly binds?: readonly string[];
  /** false is the agent configuration's "update checks off": update is refused (333). */
  readonly updateChecks?: boolean;
  /** How long the simulated download of an update takes. */
  readonly updateDurationMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Without a ping from the server for this long, the connection is taken for dead. */
  readonly deadPeerMs?: number;
};

export type StopReason = 'command' | 'refused' | 'local' | 'replaced';

export type AgentHooks = {
  /** Every (re)connection: a new session. */
  readonly online?: (sessionId: string, version: string) => void;
  /** The server refused the hello (or revoked the session): the agent stops. */
  readonly refused?: (refusal: Omit<Refused, 'type'>) => void;
  /** A connection attempt failed or a connection was lost; the agent retries after `retryInMs`. */
  readonly disconnected?: (reason: string, retryInMs: number) => void;
  /**
   * A restart was accepted. With this hook the agent hands over to a new process running
   * `version` (the CLI); without it the agent restarts in-process with a new session.
   */
  readonly replace?: (version: string) => void;
  readonly stopped?: (reason: StopReason) => void;
};

const DEFAULT_BACKOFF = { initialMs: 250, maxMs: 5_000 };

/**
 * A tunnel agent: one WebSocket to the agent endpoint at a time, each connection one session.
 * It keeps its own state (OS, update checks, update progress) and answers commands from it, so
 * the server only forwards commands and maps the answers. Lost connections are retried with
 * exponential backoff; a refusal is final.
 */
export class Agent {
  private ws: WebSocket | undefined;
  private version: string;
  private updater: Updater;
  private releases: readonly string[] = [];
  private sessionId: string | undefined;
  private halted: StopReason | undefined;
  private finished = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private deadPeerTimer: NodeJS.Timeout | undefined;
  private readonly onlineWaiters = new Set<{
    resolve: (id: string) => void;
    reject: (error: Error) => void;
  }>();
  private readonly stopWaiters = new Set<() => void>();

  constructor(
    private readonly config: AgentConfig,
    private readonly hooks: AgentHooks = {},
  ) {
    this.version = config.version;
    this.updater = this.newUpdater();
    this.retryMs = this.backoff.initialMs;
  }

  get session(): string | undefined {
    return this.sessionId;
  }

  get runningVersion(): string {
    return this.version;
  }

  get stopped(): StopReason | undefined {
    return this.halted;
  }

  start(): this {
    this.connect();
    return this;
  }

  /** Resolves with the session id once the agent is online (at once when it is). */
  online(timeoutMs = 10_000): Promise<string> {
    if (this.sessionId !== undefined) return Promise.resolve(this.sessionId);
    if (this.finished) return Promise.reject(new Error(`agent stopped (${this.halted})`));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (id: string) => {
          clearTimeout(timer);
          resolve(id);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.onlineWaiters.delete(waiter);
        reject(new Error(`agent not online after ${timeoutMs} ms`));
      }, timeoutMs);
      this.onlineWaiters.add(waiter);
    });
  }

  /** Stops the agent from this side: no command, no reconnection. */
  stop(): Promise<void> {
    return this.halt('local');
  }

  private get backoff() {
    return this.config.backoff ?? DEFAULT_BACKOFF;
  }

  private newUpdater(): Updater {
    return new Updater(
      this.version,
      this.config.updateChecks ?? true,
      this.config.updateDurationMs ?? 1_500,
    );
  }

  private connect(): void {
    const ws = new WebSocket(this.config.url, { handshakeTimeout: 5_000 });
    this.ws = ws;
    let lastError = 'connection closed';
    ws.on('open', () => {
      this.watchPeer(ws);
      const hello: Hello = {
        type: 'hello',
        authtoken: this.config.authtoken,
        version: this.version,
        os: this.config.os,
        ...(this.config.region !== undefined && { region: this.config.region }),
        ...(this.config.metadata !== undefined && { metadata: this.config.metadata }),
        binds: [...(this.config.binds ?? [])],
        update_checks: this.config.updateChecks ?? true,
      };
      ws.send(JSON.stringify(hello));
    });
    ws.on('ping', () => this.watchPeer(ws));
    ws.on('message', (data, isBinary) => {
      this.watchPeer(ws);
      const parsed = isBinary
        ? ({ ok: false, reason: 'binary message from the server' } as const)
        : parseMessage(ServerMessage, data.toString());
      if (!parsed.ok) {
        lastError = parsed.reason;
        ws.close(CLOSE.protocolError, parsed.reason.slice(0, 120));
        return;
      }
      const message = parsed.value;
      switch (message.type) {
        case 'online':
          this.sessionId = message.session_id;
          this.releases = message.releases;
          this.retryMs = this.backoff.initialMs;
          this.hooks.online?.(message.session_id, this.version);
          for (const waiter of this.onlineWaiters) waiter.resolve(message.session_id);
          this.onlineWaiters.clear();
          return;
        case 'refused':
          this.halted ??= 'refused';
          this.hooks.refused?.({ code: message.code, message: message.message });
          return;
        case 'command':
          this.obey(ws, message.seq, message.name);
          return;
      }
    });
    ws.on('error', (error) => (lastError = error.message));
    ws.on('close', (code, reason) => {
      // A connection an in-process restart already replaced.
      if (ws !== this.ws) return;
      clearTimeout(this.deadPeerTimer);
      this.ws = undefined;
      this.sessionId = undefined;
      if (this.halted !== undefined) {
        this.finish();
        return;
      }
      const why = reason.length > 0 ? `${reason.toString()} (${code})` : lastError;
      const retryIn = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, this.backoff.maxMs);
      this.hooks.disconnected?.(why, retryIn);
      this.retryTimer = setTimeout(() => this.connect(), retryIn);
    });
  }

  /** A server that neither pings nor talks is gone even if TCP has not noticed. */
  private watchPeer(ws: WebSocket): void {
    clearTimeout(this.deadPeerTimer);
    this.deadPeerTimer = setTimeout(() => ws.terminate(), this.config.deadPeerMs ?? 40_000);
    this.deadPeerTimer.unref();
  }

  private obey(ws: WebSocket, seq: number, name: TunnelSessionCommandName): void {
    const answer = (error?: AgentCommandError) =>
      ws.send(
        JSON.stringify({ type: 'result', seq, ok: error === undefined, ...(error && { error }) }),
      );
    switch (name) {
      case 'stop':
        answer();
        void this.halt('command');
        return;
      case 'update':
        answer(this.updater.update(this.releases));
        return;
      case 'restart': {
        if (this.config.os === 'windows') return answer('restartUnsupportedOnWindows');
        answer();
        const version = this.updater.versionForRestart();
        this.updater.dispose();
        if (this.hooks.replace) {
          const replace = this.hooks.replace;
          void this.halt('replaced').then(() => replace(version));
          return;
        }
        // In-process restart: a fresh "process" state, then a new connection and session.
        this.version = version;
        this.updater = this.newUpdater();
        this.retryMs = this.backoff.initialMs;
        this.sessionId = undefined;
        this.ws = undefined;
        ws.close(CLOSE.agentLeaving, 'restarting');
        this.connect();
        return;
      }
    }
  }

  private halt(reason: StopReason): Promise<void> {
    if (this.finished) return Promise.resolve();
    this.halted ??= reason;
    clearTimeout(this.retryTimer);
    this.updater.dispose();
    const done = new Promise<void>((resolve) => this.stopWaiters.add(resolve));
    const ws = this.ws;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(CLOSE.agentLeaving, reason === 'replaced' ? 'restarting' : 'stopping');
    } else this.finish();
    return done;
  }

  private finish(): void {
    if (this.finished || this.halted === undefined) return;
    this.finished = true;
    clearTimeout(this.retryTimer);
    for (const resolve of this.stopWaiters) resolve();
    this.stopWaiters.clear();
    const error = new Error(`agent stopped (${this.halted})`);
    for (const waiter of this.onlineWaiters) waiter.reject(error);
    this.onlineWaiters.clear();
    this.hooks.stopped?.(this.halted);
  }
}
