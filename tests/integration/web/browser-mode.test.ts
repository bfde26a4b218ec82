import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventHub } from '../../../core/ipc/events.ts';
import { startWebServer, type WebServer } from '../../../web/server.ts';
import { chromiumArgs, chromiumExecutable } from '../../support/chromium.ts';
import { appInfoOnly } from './support.ts';

// The built renderer in real Chromium, served by the real browser-mode server: the whole path
// a user of `npm run web` takes. `npm run test:integration` builds the renderer first.
const rendererDir = fileURLToPath(new URL('../../../dist/renderer', import.meta.url));

let server: WebServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(`${rendererDir}/index.html`)) throw new Error('run `vite build` first');
  server = await startWebServer({
    rendererDir,
    implementation: appInfoOnly('4.5.6'),
    events: new EventHub(),
  });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('opens from the printed address, drops the token from it, and survives a reload', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto(server.url);
  await page.getByText('v4.5.6').waitFor();
  expect(page.url()).toBe(`${server.origin}/`);

  await page.reload();
  await page.getByText('v4.5.6').waitFor();
  expect(problems).toEqual([]);
});

it('without the token, says how to start the app instead of calling anything', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/`);
  await expect(page.getByRole('alert').textContent()).resolves.toContain('npm run web');
});
