import { existsSync } from 'node:fs';
import type { Page } from 'playwright';

/**
 * How every test launches Chromium. Debian's build is used because Playwright cannot download
 * its own here; the flags stop Chromium from reaching for Google's hosts, which this machine's
 * closed network refuses many times over at each start.
 */
export const chromiumExecutable = process.env.BURROW_CHROMIUM ?? '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * For pages driven from outside (the window's e2e tests): Debian's headless shell (package
 * chromium-headless-shell), the same Blink without the full browser around it, as Playwright
 * itself runs headless tests. e2e-window cost 128 core-seconds in it against 163 in the full
 * browser (same tests, same machine). Where it is not installed, the full browser.
 */
export const headlessShellExecutable =
  process.env.BURROW_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : chromiumExecutable);

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What went wrong in `page` from now on: console errors and warnings (a CSP violation shows up
 * there) and uncaught page errors. A test ends by expecting it empty.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
