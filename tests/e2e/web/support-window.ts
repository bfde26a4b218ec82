import axe from 'axe-core';
import { mkdir } from 'node:fs/promises';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright';
import { expect, inject } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { PAGE_SECRET_HEADER } from '../../../shared/app/ipc/browser-mode.ts';
import { chromiumArgs, headlessShellExecutable } from '../../support/chromium.ts';
import { CHROMIUM_ENDPOINT } from '../../support/chromium-server.ts';
import { startWebApp, type WebApp } from './support-cli.ts';

/** Where the suites leave their screenshots, for a person to look at. */
const SHOTS = 'test-results/screenshots';

/**
 * A screenshot of `page` as `test-results/screenshots/<name>.png`, only when BURROW_SCREENSHOTS=1
 * asks: they are for a person to look at, and each costs a busy machine a good part of a second.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (process.env.BURROW_SCREENSHOTS !== '1') return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, ...options });
}

/** The sizes and colour schemes the screenshots are taken at, each named as `800x600-light`. */
async function eachLook(page: Page, look: (name: string) => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [800, 600],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await look(`${width}x${height}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Runs `shoot` at each look, only when BURROW_SCREENSHOTS=1 asks for screenshots: without it,
 * the resizing and what `shoot` does first would be work for nothing. Leaves the page light; the
 * size is the caller's to set back.
 */
export async function forEachLook(
  page: Page,
  shoot: (look: string) => Promise<void>,
): Promise<void> {
  if (process.env.BURROW_SCREENSHOTS !== '1') return;
  await eachLook(page, shoot);
}

/** `npm run web` and one page on it, at its first screen, as the resource suites drive it. */
export type WebWindow = {
  readonly web: WebApp;
  readonly page: Page;
  /** A section of the sidebar, then one of its tabs. */
  go(section: string, tab?: string): Promise<void>;
  /** Creates a resource through its form, which `fill` fills in; answers its id, from the toast. */
  create(singular: string, fill?: () => Promise<unknown>): Promise<string>;
  /** Sets a module shown in `panel` (the page by default) through its dialog, which `fill` fills. */
  setModule(
    label: string,
    fill: (dialog: Locator) => Promise<unknown>,
    panel?: Locator,
  ): Promise<void>;
  /** Removes a module shown in `panel` (the page by default): asked first, then said "not set". */
  removeModule(label: string, panel?: Locator): Promise<void>;
  /** Opens `id` from the list shown and confirms its Delete; the test looks for the answer. */
  deleteFromList(id: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Selects `value` in `select` once it is offered: a select of resources lists them only when the
 * call for them has answered, after its dialog opened.
 */
export async function selectListed(select: Locator, value: string): Promise<void> {
  await select.locator(`option[value="${value}"]`).waitFor({ state: 'attached' });
  await select.selectOption(value);
}

/**
 * A browser of the file's own: a connection to the project's Chromium (tests/support/
 * chromium-server.ts) where one runs, else a Chromium launched for it. Closing it closes the
 * contexts it made.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject(CHROMIUM_ENDPOINT);
  const browser = await (endpoint
    ? chromium.connect(endpoint)
    : chromium.launch({ executablePath: headlessShellExecutable, args: chromiumArgs }));
  browsers.add(browser);
  browser.on('disconnected', () => browsers.delete(browser));
  return browser;
}

/** The browsers this file's tests have open, for `whatPagesShow`. */
const browsers = new Set<Browser>();
/** At most this much of each page's accessibility tree is printed. */
const SNAPSHOT_CHARS = 6_000;

/**
 * Each open page's address and what a screen reader would find on it (roles and names), for the
 * report of a failed test: a locator that timed out says only what it waited for, not what the
 * page showed instead.
 */
export async function whatPagesShow(): Promise<string> {
  const pages = [...browsers].flatMap((b) => b.contexts().flatMap((c) => c.pages()));
  const shown = await Promise.all(
    pages.map(async (page) => {
      const tree = await page
        .locator('body')
        .ariaSnapshot({ timeout: 5_000 })
        .catch((error: unknown) => `(no snapshot: ${String(error).split('\n')[0]})`);
      const cut = tree.length > SNAPSHOT_CHARS ? `${tree.slice(0, SNAPSHOT_CHARS)}\n…` : tree;
      return `${page.url()}\n${cut}`;
    }),
  );
  return shown.join('\n\n');
}

/** `npm run web` and a page of a browser of its own, not yet at the app; `close` ends both. */
export type WebPage = {
  readonly web: WebApp;
  readonly browser: Browser;
  readonly page: Page;
  close(): Promise<void>;
};

/**
 * The start most files need, the app and Chromium side by side; the page has a context of its
 * own (axe needs one), made with `context`.
 */
export async function openPage(
  options?: Parameters<typeof startWebApp>[0],
  context?: BrowserContextOptions,
): Promise<WebPage> {
  const [web, browser] = await Promise.all([startWebApp(options), launchChromium()]);
  const page = await browser.newPage(context);
  return {
    web,
    browser,
    page,
    async close() {
      await browser.close();
      await web.stop();
    },
  };
}

export async function openWindow(viewport: { width: number; height: number }): Promise<WebWindow> {
  // Many writes in a row: the service's limit (the sandbox's and the app's own window alike)
  // would only make the test wait.
  const { web, page, close } = await openPage({ sandboxRateLimit: '6000/60' }, { viewport });
  await page.goto(web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();

  return {
    web,
    page,
    async go(section, tab) {
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: section, exact: true })
        .click();
      // The section's own heading first: under load the screen before it was still being
      // swapped out, and a link found in it was detached before the click landed.
      await page.getByRole('heading', { level: 1, name: section, exact: true }).waitFor();
      if (tab) await page.getByRole('link', { name: tab, exact: true }).click();
    },
    async create(singular, fill) {
      await page.getByRole('button', { name: `New ${singular}` }).click();
      await fill?.();
      await page.getByRole('button', { name: `Create ${singular}` }).click();
      const toast = page
        .getByRole('status')
        .filter({ hasText: `Created ${singular}` })
        .last();
      // The toast names it and links to its page, whose address ends with its id.
      const href = (await toast.getByRole('link').getAttribute('href')) ?? '';
      await toast.getByRole('button', { name: 'Dismiss' }).click();
      const id = href.split('/').pop();
      expect(id).toBeTruthy();
      return id ?? '';
    },
    async setModule(label, fill, panel = page.locator('body')) {
      await panel.getByRole('button', { name: `Set ${label}` }).click();
      const dialog = page.getByRole('dialog');
      await fill(dialog);
      await dialog.getByRole('button', { name: `Set ${label}` }).click();
      await panel.getByRole('article', { name: label }).getByText('set', { exact: true }).waitFor();
    },
    async removeModule(label, panel = page.locator('body')) {
      await panel.getByRole('button', { name: `Remove ${label}` }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: `Remove ${label}` })
        .click();
      await panel.getByRole('article', { name: label }).getByText('not set').waitFor();
    },
    async deleteFromList(id) {
      await page.getByRole('link', { name: id }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    },
    close,
  };
}

/** `npm run web` with a second sandbox added as the profile "Staging", both without the limit. */
export type WithStaging = WebPage & { readonly sandbox: Awaited<ReturnType<typeof startSandbox>> };

/** The app and Staging (API key `apiKey`), a page at its first screen; `close` ends all three. */
export async function openWithStaging(apiKey: string): Promise<WithStaging> {
  const [app, sandbox] = await Promise.all([
    openPage({ sandboxRateLimit: 'off' }, { viewport: { width: 1280, height: 800 } }),
    startSandbox({ apiKey, rateLimit: 'off' }),
  ]);
  await app.page.goto(app.web.url);
  await app.page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  await invokeFrom(app.page, 'profiles.add', { name: 'Staging', baseUrl: sandbox.url, apiKey });
  return {
    ...app,
    sandbox,
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}

/**
 * A contract call from the page, over its own browser-mode session (the page secret the tab
 * keeps), as the renderer makes it.
 */
export async function invokeFrom(page: Page, name: string, ...args: unknown[]): Promise<unknown> {
  const secret = String(await page.evaluate("sessionStorage.getItem('burrow.pageSecret')"));
  const reply = await page.evaluate(
    async ([name, args, headers]) => {
      const response = await fetch('/ipc/invoke', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, args }),
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
    },
    [name, args, { 'Content-Type': 'application/json', [PAGE_SECRET_HEADER]: secret }] as const,
  );
  if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
  return reply.value;
}

/** The bodies of the page's contract calls, as they crossed the wire: its requests, its answers. */
export type IpcTraffic = { readonly sent: string[]; readonly answered: string[] };

/**
 * The page's contract calls from now on, for a test that looks for what must never cross (a
 * secret) or a call that must not have been made.
 */
export function watchIpc(page: Page): IpcTraffic {
  const traffic: IpcTraffic = { sent: [], answered: [] };
  page.on('request', (request) => {
    if (request.url().endsWith('/ipc/invoke')) traffic.sent.push(request.postData() ?? '');
  });
  page.on('response', (response) => {
    // An answer that arrives as the page navigates away has no body left to read (Chromium
    // drops it); the page never read it either.
    if (response.url().endsWith('/ipc/invoke'))
      response.text().then(
        (text) => traffic.answered.push(text),
        () => undefined,
      );
  });
  return traffic;
}

/**
 * Axe on what the page shows now, every rule of its default set over the whole page but for
 * `exclude` (selectors): a line for each violation, naming the rule and where. Axe is put into
 * the page once, not once per check (it stays while the window moves between its hash routes),
 * and only violations are described node by node: describing every node that passed, which no
 * test reads, was most of a check's cost.
 */
export async function axeViolations(
  page: Page,
  label: string,
  exclude: readonly string[] = [],
): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe?.run === 'function'")))
    await page.evaluate(axe.source);
  const violations = await page.evaluate(
    ([context, options]) =>
      (globalThis as unknown as { axe: typeof axe }).axe
        .run(context, options)
        .then((results) => results.violations),
    [{ exclude: [...exclude] }, { resultTypes: ['violations'] }] as [
      axe.ContextObject,
      axe.RunOptions,
    ],
  );
  return violations.map(
    (v) => `${label}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/**
 * What the page shows at each look: a screenshot of each in SHOTS, for a person to look at, and
 * axe on each. Leaves the page light at 1280×800.
 */
export async function shootEverywhere(page: Page, name: string): Promise<string[]> {
  const violations: string[] = [];
  await eachLook(page, async (look) => {
    const shot = `${name}-${look}`;
    await screenshot(page, shot);
    violations.push(...(await axeViolations(page, shot)));
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  return violations;
}
