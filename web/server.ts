import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dispatchIpc, type IpcImplementation } from '../core/ipc/dispatch.ts';
import type { EventHub } from '../core/ipc/events.ts';
import { CONTENT_SECURITY_POLICY } from '../core/security/csp.ts';
import { resolveUnder } from '../core/security/paths.ts';
import type { IpcReply } from '../shared/app/ipc/bridge.ts';
import { MAX_HTTP_CALL_BYTES, PAGE_SECRET_HEADER } from '../shared/app/ipc/browser-mode.ts';
import { capConnections } from './connections.ts';
import { SignIn } from './sign-in.ts';

export interface WebServerOptions {
  /** The built renderer (vite build's output). */
  rendererDir: string;
  implementation: IpcImplementation;
  /** Core's events, forwarded to every open event stream. */
  events: EventHub;
  port?: number;
  /**
   * Shows a new address to open (the terminal), made when a page came with a used or unknown
   * one, or with none, and no unused address was waiting.
   */
  announce?: (url: string) => void;
  /** How long a connection may take to send a request's headers, and stay idle between two. */
  timeouts?: { headersMs: number; idleMs: number };
  /** Connections open at once; past it the oldest idle one is closed (see connections.ts). */
  maxConnections?: number;
}

export interface WebServer {
  /**
   * The address to open, with a single-use token in the fragment (never sent to the server in
   * logs): it signs one tab in, once.
   */
  url: string;
  origin: string;
  /** A fresh single-use address; the one printed before it no longer signs anything in. */
  newAddress(): string;
  /** Event streams open now: a closed tab must not leave one behind. */
  openStreams(): number;
  close(): Promise<void>;
}

/** Keeps proxies and the browser from closing an idle event stream. */
const HEARTBEAT_MS = 25_000;
/**
 * Events not yet sent to a tab that stopped reading: past this the stream is dropped rather
 * than held in memory without end. The page reconnects and asks for the state again.
 */
const MAX_STREAM_BUFFER_BYTES = 4 << 20;
const TIMEOUTS = { headersMs: 10_000, idleMs: 5_000 };
/** Far more than a few tabs use (a browser opens at most six connections to one host). */
const MAX_CONNECTIONS = 128;

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
 * of the printed address is exchanged once (`POST /ipc/session`) for a page secret, which the
 * page keeps in its own origin's storage so that a reload keeps working, and the token, used up,
 * is worth nothing in the browser's history. Every call and the event stream must carry the page
 * secret in a header (see sign-in.ts for why not in a cookie), come from this very origin and
 * name this host: no other page, no other port, no DNS-rebound name can drive it. core/ checks
 * the call itself as for Electron. Events go out as server-sent events on `GET /ipc/events`.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const root = path.resolve(options.rendererDir);
  const timeouts = options.timeouts ?? TIMEOUTS;
  let origin = '';
  let host = '';

  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: Math.max(timeouts.headersMs, 30_000),
      keepAliveTimeout: timeouts.idleMs,
      // Node checks the two above this often: a fraction of the shorter keeps them close.
      connectionsCheckingInterval: Math.min(timeouts.headersMs, timeouts.idleMs) / 4,
    },
    (request, response) => {
      handle(request, response).catch(() => send(response, 500, 'text/plain', 'internal error'));
    },
  );
  capConnections(server, options.maxConnections ?? MAX_CONNECTIONS);

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

  const streams = new Set<ServerResponse>();

  /** Why a request may not reach core, or undefined when it may. */
  function refusal(request: IncomingMessage): Refusal | undefined {
    return (
      foreign(request) ??
      (signIn.signedIn(request.headers[PAGE_SECRET_HEADER]) ? undefined : [401, 'signed out'])
    );
  }

  /**
   * A page of another origin could send a token or page secret only if it had it; refusing foreign
   * origins outright also keeps out anything a browser extension or a proxy might replay.
   */
  function foreign(request: IncomingMessage): Refusal | undefined {
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return [403, 'foreign origin'];
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return [403, 'cross-site request'];
    return undefined;
  }

  function newAddress(): string {
    return `${origin}/#token=${signIn.issue()}`;
  }

  function allow(method: string, request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method === method) return true;
    response.setHeader('Allow', method);
    send(response, 405, 'text/plain', 'method not allowed');
    return false;
  }

  /**
   * Signs a tab in with the address's token, which this uses up, and answers the page secret.
   * The same browser opening that address again gets its session's secret back. Anyone else is
   * refused, and when no unused address waits the terminal gets a new one: the page tells the
   * person to look there.
   */
  async function openSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!allow('POST', request, response)) return;
    const refused = foreign(request);
    if (refused) return send(response, refused[0], 'text/plain', refused[1]);
    const { authorization, cookie } = request.headers;
    const opened = signIn.open(authorization);
    if (opened) response.setHeader('Set-Cookie', signIn.setCookie(opened));
    const session = opened ?? signIn.reopen(authorization, cookie);
    if (session)
      return send(response, 200, 'application/json', JSON.stringify({ page: session.page }));
    if (!signIn.waiting) options.announce?.(newAddress());
    send(response, 401, 'text/plain', 'address used or unknown');
  }

  async function invoke(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!allow('POST', request, response)) return;
    const refused = refusal(request);
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

  /**
   * One stream per tab; closing the tab (or dropping the stream) leaves nothing behind. A tab
   * that stops reading is dropped once its backlog passes the bound.
   */
  function streamEvents(request: IncomingMessage, response: ServerResponse): void {
    if (!allow('GET', request, response)) return;
    const refused = refusal(request);
    if (refused) return send(response, refused[0], 'text/plain', refused[1]);
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    streams.add(response);
    const write = (chunk: string) => {
      response.write(chunk);
      if (response.writableLength > MAX_STREAM_BUFFER_BYTES) end();
    };
    const unsubscribe = options.events.onEvent((event) =>
      write(`data: ${JSON.stringify(event)}\n\n`),
    );
    const heartbeat = setInterval(() => write(': ♥\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
      response.destroy();
    };
    response.once('close', end);
    write(': burrow\n\n');
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
  // Requests before this point meet an empty host and get 421: none reaches the sign-in.
  const signIn = new SignIn(port);
  return {
    url: newAddress(),
    origin,
    newAddress,
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

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_HTTP_CALL_BYTES) {
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
