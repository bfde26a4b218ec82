import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventHub } from '../../../core/ipc/events.ts';
import { PAGE_SECRET_HEADER } from '../../../shared/app/ipc/browser-mode.ts';
import { startWebServer, type WebServer } from '../../../web/server.ts';
import { appInfoOnly } from './support.ts';

let server: WebServer;
let rendererDir: string;
let outside: string;
/** The test's own tab, signed in, for the calls that need one. */
let tab: Tab;
const events = new EventHub();
const announced: string[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-web-'));
  rendererDir = path.join(dir, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Burrow</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  outside = path.join(dir, 'secret.txt');
  await writeFile(outside, 'secret');
  server = await startWebServer({
    rendererDir,
    implementation: appInfoOnly('1.0.0'),
    events,
    announce: (url) => announced.push(url),
  });
  tab = await signIn();
});

afterAll(() => server.close());

function tokenOf(url: string): string {
  return new URL(url).hash.replace('#token=', '');
}

function openSession(headers: Record<string, string>) {
  return request(`${server.origin}/ipc/session`, { method: 'POST', headers });
}

/** A tab signed in: the address it opened, its browser's cookie as sent back, its page secret. */
type Tab = { token: string; cookie: string; page: string };

/** Signs a tab in with a fresh address of `web` (this test's server unless told). */
async function signIn(web: WebServer = server): Promise<Tab> {
  const token = tokenOf(web.newAddress());
  const reply = await request(`${web.origin}/ipc/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reply.statusCode).toBe(200);
  const setCookie = String(reply.headers['set-cookie']);
  const port = new URL(web.origin).port;
  expect(setCookie).toMatch(
    new RegExp(`^burrow_session_${port}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/$`),
  );
  const { page } = (await reply.body.json()) as { page: string };
  expect(page).toMatch(/^[\w-]{32}$/);
  return { token, cookie: setCookie.split(';')[0] ?? '', page };
}

/** A call with the tab's page secret, and `headers` over it (null leaves a header out). */
function invoke(body: unknown, headers: Record<string, string | null> = {}) {
  const all = { 'content-type': 'application/json', [PAGE_SECRET_HEADER]: tab.page, ...headers };
  return request(`${server.origin}/ipc/invoke`, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const appInfo = { name: 'app.info', args: [] };

describe('browser-mode server', () => {
  it('prints an address on loopback with the token in the fragment', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
  });

  it('serves the page with a strict CSP and no caching', async () => {
    const reply = await request(`${server.origin}/`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(await reply.body.text()).toContain('<title>Burrow</title>');
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%E0%A4%A',
    '/nope.js',
    '/assets',
    '//',
    '//evil.example/secret.txt',
  ])('refuses %s', async (p) => {
    const reply = await request(`${server.origin}${p}`);
    expect([400, 404]).toContain(reply.statusCode);
    expect(await reply.body.text()).not.toContain('secret');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const reply = await request(`${server.origin}/index.html`, { method: 'HEAD' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(0);
    expect(await reply.body.text()).toBe('');
  });

  it.each([
    ['POST', '/index.html', 'GET, HEAD'],
    ['DELETE', '/assets/app.js', 'GET, HEAD'],
    ['GET', '/ipc/invoke', 'POST'],
  ])('refuses %s %s with the methods it allows', async (method, p, allow) => {
    const reply = await request(`${server.origin}${p}`, {
      method,
      body: method === 'GET' ? null : '{}',
    });
    expect(reply.statusCode).toBe(405);
    expect(reply.headers['allow']).toBe(allow);
    await reply.body.dump();
  });

  it('refuses a huge header and goes on serving', async () => {
    const reply = await request(`${server.origin}/`, {
      headers: { 'x-big': 'x'.repeat(64 << 10) },
    }).catch(() => undefined);
    if (reply) {
      expect(reply.statusCode).toBe(431);
      await reply.body.dump();
    }
    const after = await request(`${server.origin}/`);
    expect(after.statusCode).toBe(200);
    await after.body.dump();
  });

  it("answers a call that carries the tab's page secret", async () => {
    const reply = await invoke(appInfo);
    expect(await reply.body.json()).toEqual({
      ok: true,
      value: { name: 'Burrow', version: '1.0.0', shell: 'browser' },
    });
  });

  it.each([
    ['no page secret', { [PAGE_SECRET_HEADER]: null }, 401],
    ['a wrong page secret', { [PAGE_SECRET_HEADER]: 'nope' }, 401],
    ['a wrong cookie', { [PAGE_SECRET_HEADER]: null, cookie: 'burrow_session_1=nope' }, 401],
    [
      'the address token instead of a session',
      { [PAGE_SECRET_HEADER]: null, authorization: 'Bearer x' },
      401,
    ],
    ['a foreign origin', { origin: 'http://evil.example' }, 403],
    ['a rebound host name', { host: 'evil.example' }, 421],
    ['no JSON content type', { 'content-type': 'text/plain' }, 415],
  ])('refuses a call with %s', async (_, headers, status) => {
    const reply = await invoke({ name: 'app.info', args: [] }, headers);
    expect(reply.statusCode).toBe(status);
    await reply.body.dump();
  });

  it('refuses a call with the session cookie alone, as any port of the host receives it', async () => {
    const port = new URL(server.origin).port;
    for (const headers of <Record<string, string>[]>[
      { cookie: tab.cookie },
      // With the address that opened the session too: still no page secret.
      { cookie: tab.cookie, authorization: `Bearer ${tab.token}` },
      // The page secret anywhere but its header: a cookie another port would receive as well.
      { cookie: `${tab.cookie}; ${PAGE_SECRET_HEADER}=${tab.page}` },
      { cookie: `burrow_session_${port}=${tab.page}` },
    ]) {
      const reply = await invoke(appInfo, { [PAGE_SECRET_HEADER]: null, ...headers });
      expect(reply.statusCode, JSON.stringify(headers)).toBe(401);
      await reply.body.dump();
    }
    const query = await request(`${server.origin}/ipc/invoke?${PAGE_SECRET_HEADER}=${tab.page}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: tab.cookie },
      body: JSON.stringify(appInfo),
    });
    expect(query.statusCode).toBe(401);
    await query.body.dump();
  });

  it('keeps answering a tab whose cookie another port overwrote or shadowed', async () => {
    const name = `burrow_session_${new URL(server.origin).port}`;
    for (const cookie of [`${name}=forged`, `${name}=x; ${tab.cookie}`, '']) {
      const reply = await invoke(appInfo, { cookie });
      expect(await reply.body.json(), cookie).toMatchObject({ ok: true });
    }
  });

  it.each([
    'not json',
    '[]',
    'null',
    '{"name": "no.such.call", "args": []}',
    '{"name": "app.info", "args": [1]}',
    '{"name": "app.info", "args": {}}',
    '{"name": "app.info", "args": "[]"}',
    '{"name": "app.info"}',
  ])('answers the malformed call %s with an error reply', async (body) => {
    const reply = await invoke(body);
    expect(reply.statusCode).toBe(200);
    expect(await reply.body.json()).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/^IPC_/) },
    });
  });

  it('refuses a body over 1 MiB without falling over', async () => {
    const reply = await invoke({ name: 'app.info', args: ['x'.repeat(2 << 20)] }).catch(
      () => undefined,
    );
    if (reply) expect(reply.statusCode).not.toBe(500);
    const after = await invoke(appInfo);
    expect(after.statusCode).toBe(200);
    await after.body.dump();
  });
});

describe('browser-mode sign-in', () => {
  it('uses an address up: its token opens one session, once', async () => {
    const { token, page } = await signIn();
    for (let i = 0; i < 3; i++) {
      const again = await openSession({ authorization: `Bearer ${token}` });
      expect(again.statusCode).toBe(401);
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(await again.body.text()).not.toContain(page);
    }
    const reply = await invoke(appInfo, { [PAGE_SECRET_HEADER]: page });
    expect(await reply.body.json()).toMatchObject({ ok: true, value: { version: '1.0.0' } });
  });

  it('gives the browser that opened an address its page secret again (a new tab on it)', async () => {
    const name = `burrow_session_${new URL(server.origin).port}`;
    // Another port may have put its own cookie of that name before ours, on a narrower path.
    for (const cookie of [tab.cookie, `${name}=x; ${tab.cookie}`]) {
      const reply = await openSession({ authorization: `Bearer ${tab.token}`, cookie });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(await reply.body.json()).toEqual({ page: tab.page });
    }
  });

  it('gives a page secret to neither the cookie without its address nor the address without its cookie', async () => {
    const other = await signIn();
    for (const headers of <Record<string, string>[]>[
      { cookie: tab.cookie },
      { cookie: tab.cookie, authorization: 'Bearer nope' },
      { cookie: tab.cookie, authorization: `Bearer ${other.token}` },
      { cookie: other.cookie, authorization: `Bearer ${tab.token}` },
      { authorization: `Bearer ${tab.token}` },
      { cookie: tab.cookie, [PAGE_SECRET_HEADER]: tab.page },
    ]) {
      const reply = await openSession(headers);
      expect(reply.statusCode, JSON.stringify(headers)).toBe(401);
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(await reply.body.text()).not.toMatch(new RegExp(`${tab.page}|${other.page}`));
    }
  });

  it('prints a new address when a tab comes with a used one and none waits, and only then', async () => {
    const used = tokenOf(server.url);
    await signIn(); // No address waits after this.
    announced.length = 0;
    for (let i = 0; i < 3; i++) {
      const refused = await openSession({ authorization: `Bearer ${used}` });
      expect(refused.statusCode).toBe(401);
      await refused.body.dump();
    }
    // A tab with no address at all asks the same way.
    await (await openSession({})).body.dump();
    expect(announced).toHaveLength(1);
    const fresh = await openSession({ authorization: `Bearer ${tokenOf(announced[0] ?? '')}` });
    expect(fresh.statusCode).toBe(200);
    await fresh.body.dump();
  });

  it('makes an address unusable once a newer one is made', async () => {
    const older = tokenOf(server.newAddress());
    const newer = tokenOf(server.newAddress());
    const refused = await openSession({ authorization: `Bearer ${older}` });
    expect(refused.statusCode).toBe(401);
    await refused.body.dump();
    const reply = await openSession({ authorization: `Bearer ${newer}` });
    expect(reply.statusCode).toBe(200);
    await reply.body.dump();
  });

  it("keeps two servers on one host apart: each takes only its own tabs' page secrets", async () => {
    const other = await startWebServer({
      rendererDir,
      implementation: appInfoOnly('2.0.0'),
      events: new EventHub(),
    });
    try {
      const theirTab = await signIn(other);
      expect(theirTab.cookie.split('=')[0]).not.toBe(tab.cookie.split('=')[0]);
      // Cookies ignore ports: the browser sends both to both servers.
      const both = `${tab.cookie}; ${theirTab.cookie}`;
      const mine = await invoke(appInfo, { cookie: both });
      expect(await mine.body.json()).toMatchObject({ value: { version: '1.0.0' } });
      const callTheirs = (page: string) =>
        request(`${other.origin}/ipc/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: both, [PAGE_SECRET_HEADER]: page },
          body: JSON.stringify(appInfo),
        });
      const theirs = await callTheirs(theirTab.page);
      expect(await theirs.body.json()).toMatchObject({ value: { version: '2.0.0' } });
      const crossed = [
        await invoke(appInfo, { [PAGE_SECRET_HEADER]: theirTab.page }),
        await callTheirs(tab.page),
      ];
      for (const reply of crossed) {
        expect(reply.statusCode).toBe(401);
        await reply.body.dump();
      }
    } finally {
      await other.close();
    }
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer nope' }],
    ['a wrong session cookie', { cookie: 'burrow_session=guess' }],
  ])('refuses a session for %s', async (_, headers) => {
    const reply = await openSession(headers);
    expect(reply.statusCode).toBe(401);
    expect(reply.headers['set-cookie']).toBeUndefined();
    await reply.body.dump();
  });

  it('refuses a session asked for by another origin, even with the token', async () => {
    const token = tokenOf(server.newAddress());
    const reply = await openSession({
      authorization: `Bearer ${token}`,
      origin: 'http://evil.example',
    });
    expect(reply.statusCode).toBe(403);
    await reply.body.dump();
    // Not used up by the refusal.
    const mine = await openSession({ authorization: `Bearer ${token}` });
    expect(mine.statusCode).toBe(200);
    await mine.body.dump();
  });
});

describe('browser-mode event stream', () => {
  it('streams core events to an open stream and forgets a closed one', async () => {
    const controller = new AbortController();
    const reply = await request(`${server.origin}/ipc/events`, {
      headers: { [PAGE_SECRET_HEADER]: tab.page },
      signal: controller.signal,
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await expect.poll(() => server.openStreams()).toBe(1);
    const progress = { requestId: 'r1', loaded: 100, pages: 1 };
    events.emit('api.progress', progress);
    let received = '';
    for await (const chunk of reply.body) {
      received += String(chunk);
      if (received.includes('api.progress')) break;
    }
    expect(received).toContain(
      `data: ${JSON.stringify({ name: 'api.progress', payload: progress })}`,
    );
    controller.abort();
    await expect.poll(() => server.openStreams()).toBe(0);
    expect(events.size).toBe(0);
  });

  it('drops the stream of a client that stopped reading instead of buffering without end', async () => {
    const { host, port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    socket.write(
      `GET /ipc/events HTTP/1.1\r\nHost: ${host}\r\n${PAGE_SECRET_HEADER}: ${tab.page}\r\n\r\n`,
    );
    await expect.poll(() => server.openStreams()).toBe(1);
    const progress = { requestId: 'r'.repeat(1000), loaded: 1, pages: 1 };
    let sent = 0;
    // 100,000 events of 1 kB: the kernel's buffers hold some megabytes, the server a few more.
    while (server.openStreams() > 0 && sent < 100_000) {
      for (let i = 0; i < 500; i++) events.emit('api.progress', progress);
      sent += 500;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.openStreams()).toBe(0);
    expect(sent).toBeLessThan(30_000);
    expect(events.size).toBe(0);
    socket.destroy();
  });

  it('leaks nothing over many streams opened and dropped', async () => {
    for (let i = 0; i < 50; i++) {
      const controller = new AbortController();
      const reply = await request(`${server.origin}/ipc/events`, {
        headers: { [PAGE_SECRET_HEADER]: tab.page },
        signal: controller.signal,
      });
      expect(reply.statusCode).toBe(200);
      controller.abort();
      await reply.body.dump().catch(() => undefined);
    }
    await expect.poll(() => server.openStreams()).toBe(0);
    expect(events.size).toBe(0);
  });

  it.each([
    ['no credentials', {}, 401],
    ['a wrong cookie', { cookie: 'burrow_session=wrong' }, 401],
    ['a wrong page secret', { [PAGE_SECRET_HEADER]: 'wrong' }, 401],
    ['the address token', { authorization: 'Bearer x' }, 401],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 403],
    ['a rebound Host', { host: 'evil.example:80' }, 421],
  ])('refuses an event stream with %s', async (_, headers, status) => {
    const credentials = status === 401 ? {} : { [PAGE_SECRET_HEADER]: tab.page };
    const reply = await request(`${server.origin}/ipc/events`, {
      headers: { ...credentials, ...headers },
    });
    expect(reply.statusCode).toBe(status);
    await reply.body.dump();
    expect(server.openStreams()).toBe(0);
  });

  it('refuses an event stream with the session cookie alone, as any port of the host receives it', async () => {
    for (const headers of [
      { cookie: tab.cookie },
      { cookie: tab.cookie, authorization: `Bearer ${tab.token}` },
    ]) {
      const reply = await request(`${server.origin}/ipc/events`, { headers });
      expect(reply.statusCode).toBe(401);
      await reply.body.dump();
    }
    expect(server.openStreams()).toBe(0);
  });

  it('refuses a cross-site call even with a valid page secret', async () => {
    const reply = await invoke(appInfo, { 'sec-fetch-site': 'cross-site' });
    expect(reply.statusCode).toBe(403);
    await reply.body.dump();
  });
});

describe('browser-mode connections', () => {
  /** A connection that sends nothing, or half a request, and waits: what exhausts descriptors. */
  async function idle(port: number, partial: boolean): Promise<{ closed: () => boolean }> {
    const socket = connect(port, '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true)).on('error', () => undefined);
    socket.resume(); // Reads the 408 a timeout answers, so that the close is seen.
    await new Promise((resolve) => socket.once('connect', resolve));
    if (partial) socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    return { closed: () => closed };
  }

  it('caps idle connections, keeps answering a signed-in tab and closes them after the timeouts', async () => {
    const small = await startWebServer({
      rendererDir,
      implementation: appInfoOnly('3.0.0'),
      events: new EventHub(),
      // Long enough that "at once" below is told apart from the timeouts on a loaded machine.
      timeouts: { headersMs: 2_000, idleMs: 2_000 },
      maxConnections: 16,
    });
    const agent = new Agent();
    try {
      const port = Number(new URL(small.origin).port);
      const sockets: { closed: () => boolean }[] = [];
      for (let i = 0; i < 100; i++) sockets.push(await idle(port, i % 2 === 0));
      const open = () => sockets.filter((s) => !s.closed()).length;
      // The oldest idle ones make room at once.
      await expect.poll(open, { timeout: 1_500, interval: 20 }).toBeLessThanOrEqual(16);
      const session = await request(`${small.origin}/ipc/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenOf(small.url)}` },
        dispatcher: agent,
      });
      expect(session.statusCode).toBe(200);
      const { page } = (await session.body.json()) as { page: string };
      const reply = await request(`${small.origin}/ipc/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PAGE_SECRET_HEADER]: page },
        body: JSON.stringify({ name: 'app.info', args: [] }),
        dispatcher: agent,
      });
      expect(await reply.body.json()).toMatchObject({ value: { version: '3.0.0' } });
      const stream = await request(`${small.origin}/ipc/events`, {
        headers: { [PAGE_SECRET_HEADER]: page },
        dispatcher: agent,
      });
      expect(stream.statusCode).toBe(200);
      // The rest, and the tab's own keep-alive connection, go once their time is up.
      await expect.poll(open, { timeout: 10_000 }).toBe(0);
      // A tab's event stream is at work however quiet: no timeout closes it.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(small.openStreams()).toBe(1);
      stream.body.destroy();
    } finally {
      await agent.close();
      await small.close();
    }
  });
});
