import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Tabs signed in at once; the oldest is signed out past this many. */
const MAX_SESSIONS = 32;

/** One browser signed in: the address that opened it, its cookie, and its tabs' page secret. */
export interface Session {
  readonly token: string;
  readonly cookie: string;
  readonly page: string;
}

/**
 * Who may drive one browser-mode server. The address's token opens one session, once; from then
 * on its page secret, which only the page holds (the browser keeps it per origin, i.e. per
 * port), carries the tab. The cookie is no credential: browsers send a host's cookies to all
 * its ports, and let any port overwrite them. It only marks the browser, so that the same browser
 * opening its used address again gets the page secret back; with any other cookie, or without
 * the address, the address is used up. At most one unused token waits at a time, so a used or
 * stale address costs nothing: the newest printed is the one that works.
 */
export class SignIn {
  /** The cookie of this server only: two servers on one host (cookies ignore ports) keep theirs. */
  readonly cookieName: string;
  private pending: string | undefined;
  private readonly sessions: Session[] = [];

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
  open(authorization: string | undefined): Session | undefined {
    if (this.pending === undefined || !matches(authorization, `Bearer ${this.pending}`)) return;
    const session = { token: this.pending, cookie: secret(), page: secret() };
    this.pending = undefined;
    this.sessions.push(session);
    if (this.sessions.length > MAX_SESSIONS) this.sessions.shift();
    return session;
  }

  /**
   * The session that this address opened in this browser: the token in `authorization` is the
   * one it was opened with, and one of the cookies of our name is its own (another port may have
   * added its own beside it, on a narrower path).
   */
  reopen(authorization: string | undefined, cookieHeader: string | undefined): Session | undefined {
    const values = this.cookieValues(cookieHeader);
    return this.sessions.find(
      (s) =>
        matches(authorization, `Bearer ${s.token}`) && values.some((v) => matches(v, s.cookie)),
    );
  }

  /** The Set-Cookie value that marks the browser a session was opened in. */
  setCookie(session: Session): string {
    return `${this.cookieName}=${session.cookie}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** Whether the header carries the page secret of a session of this server. */
  signedIn(pageSecret: string | string[] | undefined): boolean {
    return typeof pageSecret === 'string' && this.sessions.some((s) => matches(pageSecret, s.page));
  }

  private cookieValues(cookieHeader: string | undefined): string[] {
    const prefix = `${this.cookieName}=`;
    return (cookieHeader ?? '')
      .split(';')
      .map((c) => c.trim())
      .filter((c) => c.startsWith(prefix))
      .map((c) => c.slice(prefix.length));
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
