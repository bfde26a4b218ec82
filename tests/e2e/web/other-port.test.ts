import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from './support-cli.ts';
import { invokeFrom, launchChromium } from './support-window.ts';

/*
 * Another server on this machine, on another port of 127.0.0.1, that the browser signed in to
 * `npm run web` visits: cookies ignore ports, so it receives Burrow's session cookie, and its
 * Set-Cookie lands in the same jar. With everything it received it must not make a single call,
 * and what it sets must leave Burrow's tab working.
 */

let web: WebApp;
let browser: Browser;
let page: Page;
let other: Server;
let otherOrigin = '';
/** The headers of every request the browser sent to the other server. */
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  [web, browser] = await Promise.all([startWebApp(), launchChromium()]);
  const cookieName = `burrow_session_${new URL(web.url).port}`;
  other = createServer((req, res) => {
    received.push(req.headers);
    // Overwrites Burrow's cookie where it lies, and shadows it on the calls' own path.
    if (req.url === '/overwrite')
      res.setHeader('Set-Cookie', [`${cookieName}=forged; Path=/`, `${cookieName}=x; Path=/ipc`]);
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>Another server</title>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  page = await (await browser.newContext()).newPage();
  await page.goto(web.url);
  await signedIn(page);
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await new Promise((resolve) => other?.close(resolve));
});

async function signedIn(tab: Page): Promise<void> {
  await tab.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: 15_000 });
}

/**
 * A request to Burrow from outside a browser with every header the other server received, but
 * those that would give a browser's request from another origin away.
 */
function replay(
  seen: readonly IncomingHttpHeaders[],
  path: string,
  init: { method: 'GET' | 'POST'; body?: string },
) {
  return Promise.all(
    seen.map(async (headers) => {
      const kept = Object.entries(headers).filter(
        ([name]) => !/^(host|connection|origin|referer|sec-fetch-.*)$/.test(name),
      );
      const reply = await request(`${new URL(web.url).origin}${path}`, {
        ...init,
        headers: { ...Object.fromEntries(kept), 'content-type': 'application/json' },
      });
      await reply.body.dump();
      return reply.statusCode;
    }),
  );
}

it('hands nothing usable to another port that the browser visits', async () => {
  const profiles = (await invokeFrom(page, 'profiles.state')) as { activeId: string };
  const visit = await page.context().newPage();
  await visit.goto(`${otherOrigin}/`);
  await visit.goto(`${otherOrigin}/ipc/events`);
  expect(received.length).toBeGreaterThanOrEqual(2);
  const port = new URL(web.url).port;
  expect(received[0]?.cookie).toContain(`burrow_session_${port}=`);
  // What it had by now: the browser may still ask it for more (a favicon) meanwhile.
  const seen = [...received];
  const refused = seen.map(() => 401);

  for (const [name, args] of [
    ['app.info', []],
    ['profiles.state', []],
    ['snapshots.export', [{ profileId: profiles.activeId, withSecrets: true, to: 'document' }]],
  ] as const) {
    const statuses = await replay(seen, '/ipc/invoke', {
      method: 'POST',
      body: JSON.stringify({ name, args }),
    });
    expect(statuses, name).toEqual(refused);
  }
  expect(await replay(seen, '/ipc/events', { method: 'GET' })).toEqual(refused);
  // Nor does asking for a session with it open one.
  expect(await replay(seen, '/ipc/session', { method: 'POST' })).toEqual(refused);
});

it("leaves Burrow's tab working when another port overwrites the cookie", async () => {
  await (await page.context().newPage()).goto(`${otherOrigin}/overwrite`);
  const port = new URL(web.url).port;
  const jar = await page.context().cookies();
  // The browser did take the other server's cookies in place of Burrow's.
  expect(jar.filter((c) => c.name === `burrow_session_${port}`).map((c) => c.value)).toEqual(
    expect.arrayContaining(['forged', 'x']),
  );
  await page.reload();
  await signedIn(page);
  expect(await invokeFrom(page, 'app.info')).toMatchObject({ name: 'Burrow' });
  // The event stream still carries events: the theme set by a call comes back as one.
  const theme = () => page.evaluate('document.documentElement.dataset.theme ?? null');
  await invokeFrom(page, 'settings.update', { theme: 'dark' });
  await expect.poll(theme, { timeout: 10_000 }).toBe('dark');

  // Nor does the forged cookie sign a new tab in.
  const fresh = await page.context().newPage();
  await fresh.goto(new URL(web.url).origin);
  await expect.poll(() => fresh.getByRole('alert').textContent()).toContain('signed out');
});
