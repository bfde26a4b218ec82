import { type Browser, type BrowserContext, type Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from './support-cli.ts';
import { launchChromium } from './support-window.ts';

/*
 * Signing in to browser mode, in Debian's Chromium against two `npm run web` on one host: the
 * printed address signs one browser in, once; each server keeps its own tabs signed in; a tab
 * whose session is gone says so and where the new address is.
 */

let first: WebApp;
let second: WebApp;
let browser: Browser;
/** A browser signed in to both servers by the first test. */
let mine: BrowserContext;

beforeAll(async () => {
  [first, second, browser] = await Promise.all([startWebApp(), startWebApp(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([first?.stop(), second?.stop()]);
});

async function signedIn(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: 15_000 });
}

/** The address a server printed last, once it printed one after its first. */
function newestAddress(web: WebApp): string | undefined {
  const printed = [...web.output().matchAll(/Open (http:\/\/\S+#token=\S+)/g)];
  return printed.length > 1 ? printed.at(-1)?.[1] : undefined;
}

it('keeps a tab of each of two servers on one host signed in', async () => {
  mine = await browser.newContext();
  const [one, two] = [await mine.newPage(), await mine.newPage()];
  await one.goto(first.url);
  await signedIn(one);
  await two.goto(second.url);
  await signedIn(two);
  // Cookies ignore ports, page storage does not: the second sign-in must not undo the first.
  await one.reload();
  await signedIn(one);
  await two.reload();
  await signedIn(two);
});

it('signs one browser in with the printed address, once, and leaves the token nowhere in the tab', async () => {
  // The browser signed in above opens the address again: it rides on its session.
  const again = await mine.newPage();
  await again.goto(first.url);
  await signedIn(again);
  expect(again.url()).not.toContain('token');
  // The tab's history, back and forward: no entry keeps the token.
  const entries = await again.evaluate('navigation.entries().map((entry) => entry.url)');
  expect(entries).toEqual([new URL(first.url).origin + '/']);

  // Another browser with the same address: used up, and told where the new one is.
  const other = await (await browser.newContext()).newPage();
  await other.goto(first.url);
  const alert = other.getByRole('alert');
  await expect.poll(() => alert.textContent()).toContain('This address is used up');
  expect(await alert.textContent()).toContain('npm run web');
  expect(other.url()).not.toContain('token');
  await expect.poll(() => newestAddress(first)).toBeTruthy();
  const fresh = await other.context().newPage();
  await fresh.goto(newestAddress(first) ?? '');
  await signedIn(fresh);
});

it('says a tab is signed out, in place of screens that would look empty', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(second.url).origin);
  // That tab had no address: it asked for one, which the terminal shows.
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('signed out');
  await expect.poll(() => newestAddress(second)).toBeTruthy();
  const fresh = await context.newPage();
  await fresh.goto(newestAddress(second) ?? '');
  await signedIn(fresh);

  // A tab's session is its page secret, which a reload keeps: the cookies are not it.
  await context.clearCookies();
  await fresh.reload();
  await signedIn(fresh);
  // Without its page secret the tab is signed out.
  await fresh.evaluate('sessionStorage.clear()');
  await fresh.getByRole('link', { name: 'SSH', exact: true }).click();
  const alert = fresh.getByRole('alert');
  await expect.poll(() => alert.textContent()).toContain('This tab is signed out');
  expect(await alert.textContent()).toContain('npm run web');
  expect(await fresh.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
});
