import type {
  AuthContext,
  ClientInfo,
  Connection,
  ServerChannel,
  Session,
  TcpipBindInfo,
} from 'ssh2';
import type { ErrorName } from '../../shared/api/errors/errors.ts';
import type { TunnelSessionCommandName } from '../../shared/api/kinds/tunnel-sessions.ts';
import { now } from '../resources/render.ts';
import type { Account } from '../store/account.ts';
import { newId } from '../store/ids.ts';
import type { SSHCredentialRecord } from '../store/records.ts';
import type { AgentControl, SessionRegistry, TunnelSessionRecord } from '../store/sessions.ts';
import { DEFAULT_REGION, sessionIp } from '../tunnel/protocol.ts';
import { decideBind, formatHost, resolveBind, type Bind } from './binds.ts';
import { credentialForKey, verifyKeySignature, type KeyHolder } from './credentials.ts';
import { roundTrips, type RoundTrip } from './round-trip.ts';

/** The one user name the gateway takes, as `ssh … v2@host`: the protocol version, not a person. */
const GATEWAY_USER = 'v2';
/** The command that starts the tunnel (`ssh … v2@host tunnel`); a shell does the same. */
const TUNNEL_COMMAND = 'tunnel';

/** Time to authenticate, as sshd's LoginGraceTime: an idle half-open login holds no socket forever. */
const AUTH_GRACE_MS = 30_000;
/** After stop, a client with a session channel gets this long to exit on its own (status 0). */
const LEAVE_GRACE_MS = 1_000;

/**
 * How long a refused forward waits for the client to ask for a session channel, where the reason
 * shows; a -N client, which never asks, hears the refusal this much later. Counted from the
 * request but decided only once the client's waiting messages are read: after a stall (a busy
 * machine) the timer fires before them, and a channel asked for in time must not be missed.
 */
export const CHANNEL_WAIT_MS = 3_000;
/** A client that asked for a session channel gets this long to start its tunnel in it. */
const TUNNEL_WAIT_MS = 30_000;

/** As many binds as an agent's hello may hold: what a client can make the gateway keep. */
const MAX_FORWARDS = 64;

const CTRL_C = 0x03;
const CTRL_D = 0x04;

export type GatewayDeps = {
  readonly accounts: () => Iterable<Account>;
  readonly sessions: SessionRegistry;
  readonly log: (line: string) => void;
};

/** What the client told about itself before authenticating. */
export type Peer = { readonly ip: string; readonly software: string; readonly os: string };

export function peerOf(info: ClientInfo): Peer {
  const { software } = info.header.versions;
  return {
    ip: sessionIp(info.ip),
    software,
    os: osOf(`${software} ${info.header.comments}`),
  };
}

/** The OS an SSH identification string gives away (`OpenSSH_9.2p1 Debian-2`), if any. */
export function osOf(ident: string): string {
  if (/windows/i.test(ident)) return 'windows';
  if (/debian|ubuntu|raspbian|fedora|red ?hat|centos|alpine|suse|linux/i.test(ident))
    return 'linux';
  if (/darwin|mac ?os|apple/i.test(ident)) return 'darwin';
  return 'unknown';
}

type Stream = 'stdout' | 'stderr';

/**
 * One SSH connection: authentication by a registered key, then one tunnel session for as long as
 * the connection lives. It is also the session's AgentControl, so API commands land here.
 */
export class GatewayConnection implements AgentControl {
  private holder: KeyHolder | undefined;
  private session: TunnelSessionRecord | undefined;
  /** Tunnel channels, each with whether it has a terminal (which needs CR LF). */
  private readonly channels = new Map<ServerChannel, boolean>();
  /** What was said before the client opened its tunnel channel, replayed when it does. */
  private unheard: { line: string; stream: Stream }[] = [];
  private readonly forwards = new Map<string, Bind>();
  private readonly pendingRefusals = new Set<() => void>();
  /** Session channels the client asked for: one will carry a held refusal's reason. */
  private sessionsAsked = 0;
  private readonly authTimer: NodeJS.Timeout;
  private leaveTimer: NodeJS.Timeout | undefined;
  /** A refusal goes only once the client has read its reason (round-trip.ts says why). */
  private readonly roundTrip: RoundTrip;

  constructor(
    private readonly client: Connection,
    private readonly peer: Peer,
    private readonly deps: GatewayDeps,
  ) {
    this.authTimer = setTimeout(() => client.end(), AUTH_GRACE_MS);
    this.roundTrip = roundTrips(client);
    client.on('error', (error: Error) => {
      deps.log(`ssh gateway: ${peer.ip}: ${error.message}`);
      // ssh2 hangs up after any error (a keepalive timeout too), but a frozen peer may hold the
      // socket half-closed for long: the session ends with the error, not with the socket.
      this.offline();
    });
    client.on('authentication', (ctx: AuthContext) => this.authenticate(ctx));
    client.on('ready', () => this.online());
    client.on('request', (accept, reject, name: string, info: TcpipBindInfo) =>
      this.globalRequest(name, info, accept, reject),
    );
    client.on('session', (accept) => this.openSession(accept()));
    // Local forwards (-L) would carry traffic, which the sandbox does not.
    client.on('tcpip', (_accept, reject) => reject());
    client.on('end', () => this.offline());
    client.on('close', () => {
      clearTimeout(this.leaveTimer);
      this.offline();
    });
  }

  async command(name: TunnelSessionCommandName): Promise<void | ErrorName> {
    // An SSH client has no process to replace and no agent to update: stop is all it can do.
    if (name !== 'stop') return 'commandUnsupportedOnSsh';
    this.leave('Session stopped through the API', 0);
  }

  /** The registry's way to end the session, e.g. when its credential is deleted. */
  disconnect(reason: string): void {
    this.leave(`Session closed by the service: ${reason}`, 1);
  }

  /** The sandbox is closing: the client is told, and the gateway destroys what lingers. */
  shutdown(): void {
    this.leave('The sandbox is shutting down', 1);
  }

  private authenticate(ctx: AuthContext): void {
    if (ctx.method !== 'publickey') return ctx.reject(['publickey']);
    if (ctx.username !== GATEWAY_USER) {
      this.deps.log(`ssh gateway: ${this.peer.ip}: user "${ctx.username}" refused, only "v2"`);
      return ctx.reject(['publickey']);
    }
    const lookup = credentialForKey(this.deps.accounts(), ctx.key.data);
    if (!lookup.found) {
      if (lookup.reason === 'ambiguous')
        this.deps.log(`ssh gateway: ${this.peer.ip}: key refused, registered in several accounts`);
      return ctx.reject(['publickey']);
    }
    // Without a signature the client only asks whether the key would do (RFC 4252 7).
    if (!ctx.signature || !ctx.blob) return ctx.accept();
    const { public_key } = lookup.holder.credential;
    if (!verifyKeySignature(public_key, ctx.blob, ctx.signature, ctx.hashAlgo))
      return ctx.reject(['publickey']);
    this.holder = lookup.holder;
    ctx.accept();
  }

  private online(): void {
    clearTimeout(this.authTimer);
    const holder = this.holder;
    if (!holder) return void this.client.end();
    this.session = {
      id: newId('tunnelSession'),
      agent_version: this.peer.software,
      credential_id: holder.credential.id,
      ip: this.peer.ip,
      metadata: '',
      os: this.peer.os,
      region: DEFAULT_REGION,
      started_at: now(),
      transport: 'ssh',
    };
    this.deps.sessions.add(holder.account.name, this.session, this);
  }

  /** The credential as it is now: its ACL may have changed, or it may be gone. */
  private credential(): SSHCredentialRecord | undefined {
    const holder = this.holder;
    return holder?.account.collections.sshCredential.get(holder.credential.id);
  }

  private globalRequest(
    name: string,
    requested: TcpipBindInfo,
    accept: ((port?: number) => void) | undefined,
    reject: (() => void) | undefined,
  ): void {
    const key = `${requested.bindAddr}:${requested.bindPort}`;
    if (name === 'cancel-tcpip-forward') {
      const bind = this.forwards.get(key);
      this.forwards.delete(key);
      if (bind) this.say(`Stopped forwarding ${addressOf(bind)}`);
      return accept?.();
    }
    // Unix-socket forwards have no bind to check; after stop, nothing is bound any more.
    const credential = this.credential();
    if (name !== 'tcpip-forward' || !this.session || !credential) return reject?.();
    if (this.forwards.size >= MAX_FORWARDS) {
      this.say(`Bind refused: at most ${MAX_FORWARDS} forwards per connection`, 'stderr');
      return this.refuseOnceSaid(reject);
    }
    const decision = decideBind(
      credential.acl,
      resolveBind(requested.bindAddr, requested.bindPort),
    );
    if (!decision.ok) {
      this.deps.log(`ssh gateway: ${this.peer.ip}: bind refused: ${decision.reason}`);
      this.say(`Bind refused: ${decision.reason}`, 'stderr');
      return this.refuseOnceSaid(reject);
    }
    this.forwards.set(key, decision.bind);
    // OpenSSH prints "Allocated port N" from this when it asked for port 0.
    accept?.(decision.bind.port);
    this.say(
      `Forwarding ${addressOf(decision.bind)} -> your -R target (the sandbox carries no traffic)`,
    );
  }

  /**
   * OpenSSH with ExitOnForwardFailure exits the moment a forward is refused, so the refusal waits
   * until the client's tunnel channel has shown why (OpenSSH asks for it right after its forward
   * requests), or until a client that asked for none (-N) has had a moment to ask.
   */
  private refuseOnceSaid(reject: (() => void) | undefined): void {
    if (!reject) return;
    const saidThenRefuse = () => void this.roundTrip().then(reject);
    if (this.channels.size > 0) return saidThenRefuse();
    const refuse = () => {
      clearTimeout(timer);
      if (this.pendingRefusals.delete(release)) reject();
    };
    const release = () => {
      clearTimeout(timer);
      this.pendingRefusals.delete(release);
      saidThenRefuse();
    };
    // setImmediate: what the client sent meanwhile is read first (poll comes before check).
    let timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!this.pendingRefusals.has(release)) return;
          if (this.sessionsAsked === 0) return refuse();
          timer = setTimeout(refuse, TUNNEL_WAIT_MS);
        }),
      CHANNEL_WAIT_MS,
    );
    this.pendingRefusals.add(release);
  }

  private openSession(session: Session): void {
    this.sessionsAsked += 1;
    let terminal = false;
    session.on('pty', (accept) => {
      terminal = true;
      accept?.();
    });
    session.on('window-change', (accept) => accept?.());
    session.on('env', (accept) => accept?.());
    session.on('shell', (accept) => this.startTunnel(accept(), terminal));
    session.on('exec', (accept, _reject, info) => {
      const channel = accept();
      if (info.command.trim() === TUNNEL_COMMAND) return this.startTunnel(channel, terminal);
      channel.stderr.write(
        `Unknown command "${info.command}": the gateway runs "${TUNNEL_COMMAND}", ` +
          `as in: ssh -R 0:localhost:8080 ${GATEWAY_USER}@<host> ${TUNNEL_COMMAND}\n`,
      );
      channel.exit(2);
      channel.end();
    });
  }

  private startTunnel(channel: ServerChannel, terminal: boolean): void {
    const session = this.session;
    if (!session) return void channel.end();
    this.channels.set(channel, terminal);
    channel.on('close', () => this.channels.delete(channel));
    channel.on('data', (data: Buffer) => {
      // With a terminal, the keys that end a foreground program end the tunnel.
      if (terminal && (data.includes(CTRL_C) || data.includes(CTRL_D))) this.leave('Bye', 0);
    });
    const account = this.holder?.account.name ?? '';
    this.deps.log(`ssh gateway: ${this.peer.ip}: session ${session.id} started its tunnel`);
    this.write(channel, `Burrow sandbox SSH gateway`, 'stdout');
    this.write(
      channel,
      `Session ${session.id} online: account ${account}, credential ${session.credential_id}`,
      'stdout',
    );
    for (const { line, stream } of this.unheard) this.write(channel, line, stream);
    this.unheard = [];
    for (const release of this.pendingRefusals) release();
    this.pendingRefusals.clear();
  }

  private say(line: string, stream: Stream = 'stdout'): void {
    // Bounded: a client that never opens a channel must not make the gateway hoard its refusals.
    if (this.channels.size === 0 && this.unheard.length < 2 * MAX_FORWARDS)
      this.unheard.push({ line, stream });
    for (const channel of this.channels.keys()) this.write(channel, line, stream);
  }

  private write(channel: ServerChannel, line: string, stream: Stream): void {
    const text = `${line}${this.channels.get(channel) ? '\r\n' : '\n'}`;
    if (stream === 'stderr') channel.stderr.write(text);
    else channel.write(text);
  }

  /** Ends the session now and lets the client go: by its channel if it has one, else by hanging up. */
  private leave(message: string, exitStatus: number): void {
    this.offline();
    if (this.channels.size === 0) return void this.client.end();
    for (const channel of this.channels.keys()) {
      this.write(channel, message, 'stderr');
      channel.exit(exitStatus);
      channel.end();
    }
    this.leaveTimer ??= setTimeout(() => this.client.end(), LEAVE_GRACE_MS);
  }

  /** The session leaves the registry the moment the connection (or the session) ends. */
  private offline(): void {
    clearTimeout(this.authTimer);
    const { session, holder } = this;
    if (!session || !holder) return;
    this.session = undefined;
    this.deps.sessions.remove(holder.account.name, session.id);
  }
}

function addressOf(bind: Bind): string {
  return `tcp://${formatHost(bind.host)}:${bind.port}`;
}
