import { render } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import type { ActivityEntry, ActivityFilter } from '../../shared/app/activity.ts';
import type { TrayModel } from '../../shared/app/tray.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

const LOCAL = 'prf_local0001';
const WORK = 'prf_work00001';
const AT = Date.parse('2026-11-26T10:00:00Z');

/** The record as core keeps it: newest first. */
const RECORD: ActivityEntry[] = [
  {
    kind: 'action',
    id: 'act_3',
    at: AT + 2000,
    profileId: WORK,
    title: 'Restart db',
    detail: 'Done, from the command line.',
    source: 'command line',
    ok: true,
    agentId: 'agt_db',
  },
  {
    kind: 'notice',
    id: 'act_2',
    at: AT + 1000,
    profileId: LOCAL,
    title: 'web is offline',
    detail: 'Not listed since 10:00.',
    notice: 'offline',
    held: 'rule',
    agentId: 'agt_web',
  },
  {
    kind: 'action',
    id: 'act_1',
    at: AT,
    profileId: LOCAL,
    title: 'Stop build',
    detail: 'Failed, from the tray: refused',
    source: 'tray',
    ok: false,
  },
];

function tray(unseen: number): TrayModel {
  const item = {
    type: 'item',
    id: 'activity',
    label: `${unseen} new in Activity`,
    enabled: true,
    action: { name: 'app.open', by: 'shell', screen: 'activity' },
  } as const;
  return {
    icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow' },
    title: '',
    items: unseen > 0 ? [item] : [],
  };
}

/** The app with the record above; core's `activity.seen` tells the tray nothing is new. */
function showing(hash: string) {
  window.location.hash = hash;
  const bridge = scriptedBridge({
    'activity.list': (filter: ActivityFilter) => ({
      entries: RECORD.filter(
        (e) =>
          (filter.profileId === undefined || e.profileId === filter.profileId) &&
          (filter.kind === undefined || e.kind === filter.kind),
      ),
      unseen: 3,
    }),
    'activity.seen': () => {
      queueMicrotask(() => bridge.emit('tray.changed', tray(0)));
      return null;
    },
    'tray.model': () => tray(3),
  });
  render(App, { bridge });
  return bridge;
}

const titles = () =>
  page
    .getByRole('row')
    .all()
    .slice(1)
    .map((row) => row.getByRole('rowheader').element().textContent?.replace(/\s+/g, ' ').trim());

it('lists the record newest first, each entry about an agent linking to it', async () => {
  showing('#/activity');
  await expect.element(page.getByRole('rowheader', { name: /Restart db/ })).toBeVisible();
  expect(titles()).toEqual([
    'Restart db Done, from the command line.',
    'web is offline Not listed since 10:00.',
    'Stop build Failed, from the tray: refused',
  ]);
  await expect
    .element(page.getByRole('link', { name: 'web is offline' }))
    .toHaveAttribute('href', `#/sessions?profile=${LOCAL}&agent=agt_web`);
  await expect.element(page.getByRole('link', { name: 'Stop build' })).not.toBeInTheDocument();
  await expect
    .element(page.getByRole('row', { name: /web is offline/ }))
    .toHaveTextContent('held (rule)');
  await expect
    .element(page.getByRole('row', { name: /Stop build/ }))
    .toHaveTextContent('failed, from the tray');
});

it('filters by profile and by kind, through the address', async () => {
  const bridge = showing('#/activity');
  await expect.element(page.getByRole('rowheader', { name: /Restart db/ })).toBeVisible();
  await page.getByRole('combobox', { name: /^Profile/ }).selectOptions('Local sandbox');
  await expect.element(page.getByRole('rowheader', { name: /Restart db/ })).not.toBeInTheDocument();
  expect(window.location.hash).toBe(`#/activity?profile=${LOCAL}`);
  await page.getByRole('combobox', { name: 'Kind' }).selectOptions('Notices');
  await expect.element(page.getByRole('rowheader', { name: /Stop build/ })).not.toBeInTheDocument();
  expect(titles()).toEqual(['web is offline Not listed since 10:00.']);
  expect(window.location.hash).toBe(`#/activity?profile=${LOCAL}&kind=notice`);
  expect(bridge.calls.filter((c) => c.name === 'activity.list').at(-1)?.args).toEqual([
    { profileId: LOCAL, kind: 'notice' },
  ]);
});

it('opens from the tray\'s "3 new", and seeing it clears the count', async () => {
  const bridge = showing('#/sessions');
  await page.getByRole('button', { name: 'Tray: Burrow' }).click();
  await page.getByRole('button', { name: '3 new in Activity' }).click();
  await expect.element(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  expect(window.location.hash).toBe('#/activity');
  await expect.poll(() => bridge.argsOf('activity.seen')).toEqual([]);
  await page.getByRole('button', { name: 'Tray: Burrow' }).click();
  await expect.element(page.getByRole('group', { name: 'Tray menu' })).toBeVisible();
  await expect
    .element(page.getByRole('button', { name: '3 new in Activity' }))
    .not.toBeInTheDocument();
});

it('shows the entries of the filter picked last, whichever answer comes last', async () => {
  window.location.hash = '#/activity';
  let answerAll = () => {};
  const bridge = scriptedBridge({
    'activity.list': (filter: ActivityFilter) => {
      const list = {
        entries: RECORD.filter((e) => filter.kind === undefined || e.kind === filter.kind),
        unseen: 0,
      };
      // The whole record answers slowly: the person picks a kind before it comes.
      if (filter.kind !== undefined) return list;
      return new Promise((resolve) => (answerAll = () => resolve(list)));
    },
    'activity.seen': () => null,
  });
  render(App, { bridge });
  await page.getByRole('combobox', { name: 'Kind' }).selectOptions('Notices');
  await expect.element(page.getByRole('rowheader', { name: /web is offline/ })).toBeVisible();
  answerAll();
  await expect.poll(() => bridge.calls.filter((c) => c.name === 'activity.list')).toHaveLength(2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(titles()).toEqual(['web is offline Not listed since 10:00.']);
});

afterEach(() => {
  vi.useRealTimers();
});

it('moves its times on while it is shown, as the other screens do', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(AT + 2000 + 25_000);
  showing('#/activity');
  const row = page.getByRole('row', { name: /Restart db/ });
  await expect.element(row).toHaveTextContent('25 seconds ago');
  vi.advanceTimersByTime(60_000);
  await expect.element(row).toHaveTextContent('1 minute ago');
});

it('keeps a time on one line at 800×600, beside a long entry', async () => {
  await page.viewport(800, 600);
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(AT + 2000 + 25_000);
  const kept = RECORD[0]!;
  RECORD[0] = {
    ...kept,
    detail: 'Back with a new session, running 3.1.2. linux · us · 127.0.0.1 · a long way off',
  };
  showing('#/activity');
  const time = page.getByRole('row', { name: /Restart db/ }).getByText('25 seconds ago');
  await expect.element(time).toBeVisible();
  const lines = time.element().getClientRects().length;
  RECORD[0] = kept;
  await page.viewport(1280, 800);
  expect(lines).toBe(1);
});
