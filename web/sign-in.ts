import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Tabs signed in at once; the oldest is signed out past this many. */
const MAX_SESSIONS = 32;

/**
 * Who may drive one browser-mode server: the address's token opens one session, once, and the
 * session's cookie carries that tab from then on. At most one unused token waits at a time, so
 * a used or stale address costs nothing: the newest printed is the one that works.
 */
export class SignIn {
  /** The cookie of this server only: two servers on one host (cookies ignore ports) keep theirs. */
  readonly cookieName: string;
  private pending: string | undefined;
  private readonly sessions: string[] = [];

  constructor(port: number) {
    this.cookieName = `burrow_session_${port}`;
  }

  /** A new single-use token; the one that waited before it no longer opens anything. */
  issue(): string {
    this.pending = secret();
    return this.pending;
  }

  /** Whether a token is waiting to be used, so that a refusal need not print another. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** Opens a session for the waiting token (used up by this), or answers undefined. */
  open(authorization: string | undefined): string | undefined {
    if (this.pending === undefined || !matches(authorization, `Bearer ${this.pending}`)) return;
    this.pending = undefined;
    const session = secret();
    this.sessions.push(session);
    if (this.sessions.length > MAX_SESSIONS) this.sessions.shift();
    return session;
  }

  /** The Set-Cookie value that hands a session to the tab. */
  cookie(session: string): string {
    return `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** Whether the Cookie header carries a session of this server. */
  signedIn(cookieHeader: string | undefined): boolean {
    const prefix = `${this.cookieName}=`;
    const value = (cookieHeader ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(prefix))
      ?.slice(prefix.length);
    return value !== undefined && this.sessions.some((s) => matches(value, s));
  }
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}

function matches(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
