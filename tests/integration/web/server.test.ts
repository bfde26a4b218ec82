import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventHub } from '../../../core/ipc/events.ts';
import { startWebServer, type WebServer } from '../../../web/server.ts';
import { appInfoOnly } from './support.ts';

let server: WebServer;
let outside: string;
const events = new EventHub();

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-web-'));
  const rendererDir = path.join(dir, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Burrow</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  outside = path.join(dir, 'secret.txt');
  await writeFile(outside, 'secret');
  server = await startWebServer({
    rendererDir,
    implementation: appInfoOnly('1.0.0'),
    events,
    token: 'test-token',
  });
});

afterAll(() => server.close());

function invoke(body: unknown, headers: Record<string, string> = {}) {
  return request(`${server.origin}/ipc/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-token', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('browser-mode server', () => {
  it('prints an address on loopback with the token in the fragment', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=test-token$/);
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

  it('answers a call that carries the token', async () => {
    const reply = await invoke({ name: 'app.info', args: [] });
    expect(await reply.body.json()).toEqual({
      ok: true,
      value: { name: 'Burrow', version: '1.0.0', shell: 'browser' },
    });
  });

  it.each([
    ['no token', { authorization: '' }, 401],
    ['a wrong token', { authorization: 'Bearer test-tokeN' }, 401],
    ['a foreign origin', { origin: 'http://evil.example' }, 403],
    ['a rebound host name', { host: 'evil.example' }, 421],
    ['no JSON content type', { 'content-type': 'text/plain' }, 415],
  ])('refuses a call with %s', async (_, headers, status) => {
    const reply = await invoke({ name: 'app.info', args: [] }, headers);
    expect(reply.statusCode).toBe(status);
    await reply.body.dump();
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
    const after = await invoke({ name: 'app.info', args: [] });
    expect(after.statusCode).toBe(200);
    await after.body.dump();
  });
});

describe('browser-mode session and event stream', () => {
  async function sessionCookie(): Promise<string> {
    const reply = await request(`${server.origin}/ipc/session`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token' },
    });
    expect(reply.statusCode).toBe(204);
    await reply.body.dump();
    const cookie = String(reply.headers['set-cookie']);
    expect(cookie).toMatch(/^burrow_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    return cookie.split(';')[0] ?? '';
  }

  it('exchanges the token once for an HttpOnly, SameSite=Strict cookie that carries calls', async () => {
    const cookie = await sessionCookie();
    const reply = await invoke({ name: 'app.info', args: [] }, { authorization: '', cookie });
    expect(await reply.body.json()).toMatchObject({ ok: true, value: { version: '1.0.0' } });
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer nope' }],
    ['a session cookie instead of the token', { cookie: 'burrow_session=guess' }],
  ])('refuses a session for %s', async (_, headers) => {
    const reply = await request(`${server.origin}/ipc/session`, { method: 'POST', headers });
    expect(reply.statusCode).toBe(401);
    expect(reply.headers['set-cookie']).toBeUndefined();
    await reply.body.dump();
  });

  it('streams core events to an open stream and forgets a closed one', async () => {
    const cookie = await sessionCookie();
    const controller = new AbortController();
    const reply = await request(`${server.origin}/ipc/events`, {
      headers: { cookie },
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

  it('leaks nothing over many streams opened and dropped', async () => {
    const cookie = await sessionCookie();
    for (let i = 0; i < 50; i++) {
      const controller = new AbortController();
      const reply = await request(`${server.origin}/ipc/events`, {
        headers: { cookie },
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
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 403],
    ['a rebound Host', { host: 'evil.example:80' }, 421],
  ])('refuses an event stream with %s', async (_, headers, status) => {
    const cookie = await sessionCookie();
    const credentials = 'cookie' in headers || status === 401 ? {} : { cookie };
    const reply = await request(`${server.origin}/ipc/events`, {
      headers: { ...credentials, ...headers },
    });
    expect(reply.statusCode).toBe(status);
    await reply.body.dump();
    expect(server.openStreams()).toBe(0);
  });

  it('refuses a cross-site call even with a valid cookie', async () => {
    const cookie = await sessionCookie();
    const reply = await invoke(
      { name: 'app.info', args: [] },
      { authorization: '', cookie, 'sec-fetch-site': 'cross-site' },
    );
    expect(reply.statusCode).toBe(403);
    await reply.body.dump();
  });
});
