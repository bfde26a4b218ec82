import { render } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import ConfirmDialog from '../../renderer/src/components/ConfirmDialog.svelte';
import { freshWindow, listOf, listPage as list, record, URI } from './support/records.ts';
import { createCredential } from './support/credentials.ts';
import { scriptedBridge, SOME_PROFILES, type ScriptedAnswers } from './support/scripted-bridge.ts';

/*
 * The window's layout and keyboard: the sidebar folded at 800 px, the table's column
 * priorities, empty lists, where focus goes after navigating, creating and deleting, the skip
 * link, and the first launch's word on the Local sandbox.
 */

const policy = (id: string, description = '') => record(id, 'ip_policies', { description });

beforeEach(freshWindow);
afterEach(() => page.viewport(1280, 800));

const focused = () => document.activeElement;

/** The IP policies screen listing `only`, which opens, and answering the calls `more` adds. */
function policyScreen(only: ReturnType<typeof policy>, more: ScriptedAnswers) {
  window.location.hash = '#/ip-policies';
  const answers = {
    'api.ipPolicies.list': listOf('ip_policies', [only]),
    'api.ipPolicies.get': () => only,
  };
  render(App, { bridge: scriptedBridge({ ...answers, ...more }) });
}
/** Whether the page shows it: what is not shown is not in the accessibility tree to find. */
const shown = (selector: string) => document.querySelector(selector)?.checkVisibility() ?? false;

it('folds the sidebar into a menu at 800 px wide, and keeps it open at 1280', async () => {
  await page.viewport(800, 600);
  render(App, { bridge: scriptedBridge() });
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const menu = page.getByRole('button', { name: 'Sections' });
  await expect.element(menu).toBeVisible();
  await expect.element(menu).toHaveAttribute('aria-expanded', 'false');
  expect(shown('#sections')).toBe(false);
  // The page has the window's whole width.
  expect(document.getElementById('content')?.getBoundingClientRect().width).toBeGreaterThan(780);

  await userEvent.click(menu);
  await userEvent.keyboard('{Escape}');
  expect(shown('#sections')).toBe(false);
  expect(focused()?.getAttribute('aria-controls')).toBe('sections');
  await userEvent.click(menu);
  await userEvent.click(nav.getByRole('link', { name: 'Edges', exact: true }));
  // Choosing a section closes the menu and takes focus to the new page's heading.
  await expect.poll(() => shown('#sections')).toBe(false);
  await expect.poll(() => focused()?.textContent).toBe('Edges');

  await page.viewport(1280, 800);
  await expect.poll(() => shown('button[aria-controls="sections"]')).toBe(false);
  await expect.element(nav.getByRole('link', { name: 'Edges', exact: true })).toBeVisible();
});

it('at 800 px gives descriptions the room before ids, and drops the time first', async () => {
  await page.viewport(800, 600);
  window.location.hash = '#/ip-policies';
  const description = 'The office in Lisbon, second floor, guest network excluded';
  render(App, {
    bridge: scriptedBridge({
      'api.ipPolicies.list': () =>
        list('ip_policies', [policy('ipp_2zQ8vR4mK1pX7sT9wY3bN6cD', description)]),
    }),
  });
  const cell = page.getByRole('cell', { name: description });
  await expect.element(cell).toBeVisible();
  const text = cell.element() as HTMLElement;
  const id = page
    .getByRole('cell', { name: 'ipp_2zQ8vR4mK1pX7sT9wY3bN6cD', exact: true })
    .element() as HTMLElement;
  // The whole description shows; the id gives way (whole in its tooltip).
  expect(text.scrollWidth).toBeLessThanOrEqual(text.clientWidth);
  expect(id.clientWidth).toBeLessThan(text.clientWidth);
  expect(id.title).toBe('ipp_2zQ8vR4mK1pX7sT9wY3bN6cD');
  expect(shown('th.time')).toBe(false);

  await page.viewport(1280, 800);
  await expect.element(page.getByRole('columnheader', { name: 'Created' })).toBeVisible();
});

it('says what an empty kind is for, and offers to create the first', async () => {
  window.location.hash = '#/ip-policies';
  render(App, { bridge: scriptedBridge({ 'api.ipPolicies.list': () => list('ip_policies', []) }) });
  await expect.element(page.getByText('No IP policies yet.')).toBeVisible();
  await expect.element(page.getByText('An IP policy names a set of addresses')).toBeVisible();
  await expect.element(page.getByRole('button', { name: 'New IP policy' })).toBeVisible();
  await expect.element(page.getByText('0 shown')).not.toBeInTheDocument();
  await expect.element(page.getByRole('searchbox')).not.toBeInTheDocument();
});

it('focuses the new item after creating it, and the list after deleting', async () => {
  window.location.hash = '#/ip-policies';
  const created = policy('ipp_new1', 'office');
  render(App, {
    bridge: scriptedBridge({
      'api.ipPolicies.list': () => list('ip_policies', [policy('ipp_old1', 'old')]),
      'api.ipPolicies.create': () => created,
      'api.ipPolicies.delete': () => undefined,
    }),
  });
  await userEvent.click(page.getByRole('button', { name: 'New IP policy' }));
  await userEvent.fill(page.getByRole('textbox', { name: 'Description' }), 'office');
  await userEvent.click(page.getByRole('button', { name: 'Create IP policy' }));
  await expect.poll(() => focused()?.textContent).toBe('ipp_new1');

  await userEvent.click(page.getByRole('checkbox', { name: 'Select ipp_old1' }));
  await userEvent.click(page.getByRole('button', { name: 'Delete 1 selected' }));
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  await expect.element(page.getByRole('link', { name: 'ipp_old1' })).not.toBeInTheDocument();
  await expect.poll(() => focused()?.getAttribute('aria-label')).toBe('IP policies list');
});

it('focuses the list after deleting the item open, and the heading after navigating to one', async () => {
  policyScreen(policy('ipp_only', 'one'), { 'api.ipPolicies.delete': () => undefined });
  await userEvent.click(page.getByRole('link', { name: 'ipp_only' }));
  await expect.poll(() => focused()?.textContent?.replace(/\s+/g, ' ').trim()).toBe('one ipp_only');
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  // The last one gone: the empty list, which offers to create one, has focus.
  await expect.element(page.getByText('No IP policies yet.')).toBeVisible();
  await expect.poll(() => focused()?.hasAttribute('data-list')).toBe(true);
});

it('starts with a skip link, then the header, then the sections', async () => {
  render(App, { bridge: scriptedBridge() });
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  // Tab from just before the window, as from the browser's own address bar.
  const before = document.createElement('button');
  document.body.prepend(before);
  before.focus();
  await userEvent.keyboard('{Tab}');
  before.remove();
  expect(focused()?.textContent).toBe('Skip to content');
  await userEvent.keyboard('{Tab}');
  // The header's controls (the tray, the profile) come before the sidebar and the page.
  expect(focused()?.closest('header')).not.toBeNull();
  await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => focused()?.textContent).toBe('Sessions');
  expect(focused()?.tagName).toBe('H1');
  expect(window.location.hash).toBe('');
});

it('says on the first launch what the Local sandbox is, and offers to add an account', async () => {
  const alone = { ...SOME_PROFILES, profiles: SOME_PROFILES.profiles.slice(0, 1) };
  render(App, { bridge: scriptedBridge({ 'profiles.state': () => alone }) });
  const intro = page.getByRole('region', { name: 'About the Local sandbox' });
  await expect
    .element(intro)
    .toHaveTextContent('a practice account that Burrow runs on this computer');
  await expect
    .element(intro.getByRole('link', { name: 'Add your account' }))
    .toHaveAttribute('href', '#/settings');
  await userEvent.click(intro.getByRole('button', { name: 'Dismiss' }));
  await expect.element(intro).not.toBeInTheDocument();
});

it('shows with a new token the agent command that uses it on the Local sandbox', async () => {
  await createCredential(
    record('cr_new1', 'credentials', { acl: [], owner_id: 'usr_1', token: 'tok_secret1' }),
  );
  await expect
    .element(page.getByLabelText('Agent command', { exact: true }))
    .toHaveTextContent('npm run agent -- --api-url http://127.0.0.1:4040 --authtoken tok_secret1');
  await expect.element(page.getByRole('button', { name: 'Copy agent command' })).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Done' }));
  await expect.poll(() => focused()?.textContent).toBe('cr_new1');
});

it('reads a pending abuse report again by itself, at background priority, until reviewed, its status in words', async () => {
  window.location.hash = '#/abuse-reports';
  localStorage.setItem('burrow.abuseReports.prf_local0001', JSON.stringify(['abrp_1']));
  let reads = 0;
  const report = (status: string) => ({
    ...policy('abrp_1'),
    uri: `${URI}/abuse_reports/abrp_1`,
    urls: ['https://phish.example.net/'],
    status,
    hostnames: [],
  });
  const bridge = scriptedBridge({
    'api.abuseReports.get': () => report(++reads > 1 ? 'PROCESSED' : 'PENDING'),
  });
  render(App, { bridge });
  await expect.element(page.getByRole('cell', { name: 'Pending', exact: true })).toBeVisible();
  await expect
    .element(page.getByRole('cell', { name: 'Processed', exact: true }), { timeout: 8_000 })
    .toBeVisible();
  const again = bridge.calls.filter((c) => c.name === 'api.abuseReports.get')[1];
  expect(again?.args[0]).toEqual({ params: { id: 'abrp_1' }, priority: 'background' });
});

it('gives focus back to Edit after an edit saved with Enter, not to the page', async () => {
  policyScreen(policy('ipp_edit1', 'before'), {
    'api.ipPolicies.update': () => policy('ipp_edit1', 'after'),
  });
  await userEvent.click(page.getByRole('link', { name: 'ipp_edit1' }));
  const edit = page.getByRole('button', { name: 'Edit', exact: true });
  await userEvent.click(edit);
  await userEvent.fill(page.getByRole('textbox', { name: 'Description' }), 'after');
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  await expect.poll(() => focused()).toBe(edit.element());
  // The toast names it as people do, and links to it (where its id is).
  const saved = page.getByRole('link', { name: "Saved IP policy 'after'", exact: true });
  await expect.element(saved).toHaveAttribute('href', '#/ip-policies/ipPolicies/ipp_edit1');
});

it('lays out a question left to right wherever it opens, even from right-aligned actions', async () => {
  const actions = document.body.appendChild(document.createElement('div'));
  actions.style.textAlign = 'right';
  try {
    render(ConfirmDialog, {
      target: actions,
      props: {
        title: 'Stop laptop?',
        message: 'It stops serving its tunnels.',
        confirmLabel: 'Stop',
        onanswer() {},
      },
    });
    const dialog = page.getByRole('dialog');
    for (const text of [dialog.getByRole('heading'), dialog.getByText(/stops serving/)])
      expect(getComputedStyle(text.element()).textAlign).toMatch(/^(start|left)$/);
  } finally {
    actions.remove();
  }
});
