import { timingSafeEqual, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dispatchIpc, type IpcImplementation } from '../core/ipc/dispatch.ts';
import type { EventHub } from '../core/ipc/events.ts';
import { CONTENT_SECURITY_POLICY } from '../core/security/csp.ts';
import { resolveUnder } from '../core/security/paths.ts';
import type { IpcReply } from '../shared/ipc/bridge.ts';

export interface WebServerOptions {
  /** The built renderer (vite build's output). */
  rendererDir: string;
  implementation: IpcImplementation;
  /** Core's events, forwarded to every open event stream. */
  events: EventHub;
  port?: number;
  /** A fixed token, for tests; otherwise a fresh random one each start. */
  token?: string;
}

export interface WebServer {
  /** The address to open, with the token in the fragment (never sent to the server in logs). */
  url: string;
  origin: string;
  token: string;
  /** Event streams open now: a closed tab must not leave one behind. */
  openStreams(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;
const SESSION_COOKIE = 'burrow_session';
/** Tabs opened with the printed address each get a session; the oldest go past this many. */
const MAX_SESSIONS = 32;
/** Keeps proxies and the browser from closing an idle event stream. */
const HEARTBEAT_MS = 25_000;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Browser mode: the built renderer and the IPC contract over HTTP, on loopback only. The token
 * printed at start is exchanged once (`POST /ipc/session`) for an HttpOnly, SameSite=Strict
 * session cookie, so a reload keeps working and the token need not be kept by the page. Every
 * call and the event stream must carry the cookie (or the token), come from this very origin and
 * name this host: no other page, no DNS-rebound name can drive it. core/ checks the call itself
 * as for Electron. Events go out as server-sent events on `GET /ipc/events`.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const root = path.resolve(options.rendererDir);
  let origin = '';
  let host = '';

  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, 'text/plain', 'internal error'));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.host !== host) {
      return send(response, 421, 'text/plain', 'wrong host');
    }
    // A target such as `//` does not parse as a path on this origin.
    const target = request.url ?? '/';
    if (!URL.canParse(target, origin)) return send(response, 400, 'text/plain', 'bad path');
    const { pathname } = new URL(target, origin);
    if (pathname === '/ipc/invoke') return invoke(request, response);
    if (pathname === '/ipc/session') return openSession(request, response);
    if (pathname === '/ipc/events') return streamEvents(request, response);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return send(response, 405, 'text/plain', 'method not allowed');
    }
    return serveFile(pathname === '/' ? '/index.html' : pathname, response);
  }

  const sessions: string[] = [];
  const streams = new Set<ServerResponse>();

  /** Why a request may not reach core, or undefined when it may. */
  function refusal(request: IncomingMessage, credentials: 'token' | 'any'): Refusal | undefined {
    const authorized =
      hasToken(request.headers.authorization, token) ||
      (credentials === 'any' && hasSession(request.headers.cookie, sessions));
    if (!authorized) return [401, 'missing or wrong token'];
    // A page of another origin could send the token only if it had it; refusing foreign
    // origins outright also keeps out anything a browser extension or a proxy might replay.
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return [403, 'foreign origin'];
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return [403, 'cross-site request'];
    return undefined;
  }

  function allow(method: string, request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method === method) return true;
    response.setHeader('Allow', method);
    send(response, 405, 'text/plain', 'method not allowed');
    return false;
  }

  async function openSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!allow('POST', request, response)) return;
    const refused = refusal(request, 'token');
    if (refused) return send(response, refused[0], 'text/plain', refused[1]);
    const session = randomBytes(24).toString('base64url');
    sessions.push(session);
    if (sessions.length > MAX_SESSIONS) sessions.shift();
    response.setHeader(
      'Set-Cookie',
      `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
    );
    send(response, 204, 'text/plain', '');
  }

  async function invoke(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!allow('POST', request, response)) return;
    const refused = refusal(request, 'any');
    if (refused) return send(response, refused[0], 'text/plain', refused[1]);
    if (!request.headers['content-type']?.startsWith('application/json')) {
      return send(response, 415, 'text/plain', 'JSON only');
    }
    const body = await readBody(request);
    const call = parseCall(body);
    const reply: IpcReply = call
      ? await dispatchIpc(options.implementation, call.name, call.args)
      : { ok: false, error: { code: 'IPC_BAD_REQUEST', message: 'expected {"name", "args"}' } };
    send(response, 200, 'application/json', JSON.stringify(reply));
  }

  /** One stream per tab; closing the tab (or dropping the stream) leaves nothing behind. */
  function streamEvents(request: IncomingMessage, response: ServerResponse): void {
    if (!allow('GET', request, response)) return;
    const refused = refusal(request, 'any');
    if (refused) return send(response, refused[0], 'text/plain', refused[1]);
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(': burrow\n\n');
    streams.add(response);
    const unsubscribe = options.events.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': ♥\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    response.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
    });
  }

  async function serveFile(pathname: string, response: ServerResponse): Promise<void> {
    const file = resolveUnder(root, pathname);
    const type = file === undefined ? undefined : CONTENT_TYPES[path.extname(file)];
    if (file === undefined || !type) {
      return send(response, 404, 'text/plain', 'not found');
    }
    try {
      send(response, 200, type, await readFile(file));
    } catch {
      send(response, 404, 'text/plain', 'not found');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    openStreams: () => streams.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  if (response.headersSent) return;
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

type Refusal = readonly [status: number, reason: string];

function hasSession(cookieHeader: string | undefined, sessions: readonly string[]): boolean {
  const cookies = (cookieHeader ?? '').split(';').map((c) => c.trim());
  const value = cookies
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  if (!value) return false;
  const given = Buffer.from(value);
  return sessions.some((s) => {
    const expected = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      request.destroy();
      return '';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseCall(body: string): { name: unknown; args: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return { name: (value as { name?: unknown }).name, args: (value as { args?: unknown }).args };
  } catch {
    return undefined;
  }
}
