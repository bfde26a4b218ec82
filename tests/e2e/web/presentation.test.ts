import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  invokeFrom,
  openPage,
  screenshot,
  shootEverywhere,
  type WebPage,
} from './support-window.ts';

/*
 * Details as people read them, in Debian's Chromium against `npm run web` and its Local sandbox
 * with its live demo agents: the demo edge and backend (screenshots at two sizes, light and
 * dark), and deleting the credential the demo agents are connected with, which says first that
 * they will be cut off.
 */

let app: WebPage;
let page: Page;

beforeAll(async () => {
  app = await openPage(
    { sandboxRateLimit: '6000/60', pollIntervalMs: 1_000 },
    { viewport: { width: 1280, height: 800 } },
  );
  page = app.page;
  await page.goto(app.web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
}, 120_000);
afterAll(() => app?.close());

async function open(section: string, tab: string | undefined, description: string) {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: section, exact: true })
    .click();
  if (tab) await page.getByRole('link', { name: tab, exact: true }).click();
  await page.getByRole('row').filter({ hasText: description }).getByRole('link').click();
}

/** The monitor's sessions connected with `credential`, asked over the page's own session. */
async function sessionsOf(credential: string): Promise<number> {
  const snapshot = (await invokeFrom(page, 'sessions.snapshot')) as {
    profiles: { sessions: { credential: { id: string } }[] }[];
  };
  return snapshot.profiles.flatMap((p) => p.sessions).filter((s) => s.credential.id === credential)
    .length;
}

/** Screenshots at two sizes, light and dark, and axe on each. */
async function shots(name: string) {
  expect(await shootEverywhere(page, name)).toEqual([]);
}

it('reads the demo edge and backend by their descriptions and modules as sentences', async () => {
  await open('Edges', 'TLS edges', 'Demo TLS edge');
  const backend = page.getByRole('article', { name: 'Backend' });
  await backend.getByText("Sends traffic to HTTP response backend 'Hello page'").waitFor();
  await page
    .getByRole('article', { name: 'IP restriction' })
    .getByText("Lets in only what IP policy 'Office network' allows")
    .waitFor();
  expect(await page.getByRole('term').filter({ hasText: 'created_at' }).count()).toBe(0);
  await shots('edge-detail');

  await backend.getByRole('link', { name: 'Hello page' }).click();
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await usedBy.getByRole('link', { name: 'Demo TLS edge' }).waitFor();
  await usedBy.getByText('(route /)').waitFor();
  await shots('backend-detail');
}, 120_000);

it('says that deleting the demo credential disconnects the agents using it, then does', async () => {
  await open('Credentials', undefined, 'Demo agents of the local sandbox');
  const credential = page.url().split('/').at(-1) ?? '';
  expect(await sessionsOf(credential)).toBe(3);
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await usedBy
    .getByText('3 online agents connected with this tunnel credential:')
    .waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.textContent()).toContain(
    '3 online agents use this credential and will be disconnected.',
  );
  await screenshot(page, 'credential-delete-impact-light');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('status').filter({ hasText: 'Deleted 1 tunnel credential' }).waitFor();
  // As it said: the agents are cut off, and the monitor's next polls find them gone.
  await expect.poll(() => sessionsOf(credential), { timeout: 20_000 }).toBe(0);
}, 120_000);
