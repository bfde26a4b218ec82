import { timingSafeEqual, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dispatchIpc, type IpcHandlers } from '../core/ipc/dispatch.ts';
import { CONTENT_SECURITY_POLICY } from '../core/security/csp.ts';
import { resolveUnder } from '../core/security/paths.ts';
import type { IpcReply } from '../shared/ipc/bridge.ts';

export interface WebServerOptions {
  /** The built renderer (vite build's output). */
  rendererDir: string;
  handlers: IpcHandlers;
  port?: number;
  /** A fixed token, for tests; otherwise a fresh random one each start. */
  token?: string;
}

export interface WebServer {
  /** The address to open, with the token in the fragment (never sent to the server in logs). */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

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
 * Browser mode: the built renderer and the IPC contract over HTTP, on loopback only. A call
 * must carry the token printed at start, come from this very origin and name this host (no
 * other page, no DNS-rebound name can drive it); core/ checks the call itself as for Electron.
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
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return send(response, 405, 'text/plain', 'method not allowed');
    }
    return serveFile(pathname === '/' ? '/index.html' : pathname, response);
  }

  async function invoke(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return send(response, 405, 'text/plain', 'method not allowed');
    }
    if (!hasToken(request.headers.authorization, token)) {
      return send(response, 401, 'text/plain', 'missing or wrong token');
    }
    // A page of another origin could send the token only if it had it; refusing foreign
    // origins outright also keeps out anything a browser extension or a proxy might replay.
    if (request.headers.origin !== undefined && request.headers.origin !== origin) {
      return send(response, 403, 'text/plain', 'foreign origin');
    }
    if (!request.headers['content-type']?.startsWith('application/json')) {
      return send(response, 415, 'text/plain', 'JSON only');
    }
    const body = await readBody(request);
    const call = parseCall(body);
    const reply: IpcReply = call
      ? await dispatchIpc(options.handlers, call.name, call.args)
      : { ok: false, error: { code: 'IPC_BAD_REQUEST', message: 'expected {"name", "args"}' } };
    send(response, 200, 'application/json', JSON.stringify(reply));
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
    close: () =>
      new Promise<void>((resolve) => {
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
