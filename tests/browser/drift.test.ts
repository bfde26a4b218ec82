import { render } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import { notWatched, type Drift, type DriftStatus } from '../../shared/app/ipc/drift.ts';
import type { PlannedSnapshot } from '../../shared/app/ipc/snapshots.ts';
import { freshWindow } from './support/records.ts';
import { budget, scriptedBridge, type ScriptedAnswers } from './support/scripted-bridge.ts';

/*
 * The Drift screen against a scripted core: watching, a drift shown as a diff from the baseline
 * to the live account, and its three actions; the sidebar's count; Settings' drift fields.
 */

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const DRIFT: Drift = {
  id: '0123456789abcdef',
  foundAt: ago(HOUR / 6),
  summary: '1 IP policy updated, 1 tunnel credential created',
  secretsChanged: ['httpsEdgeRoute/www/api'],
  changes: {
    counts: { create: 1, update: 1, delete: 0, unchanged: 1 },
    steps: [
      {
        action: 'update',
        kind: 'ipPolicy',
        group: 'ipPolicies',
        name: 'ipPolicy/office',
        id: 'ipp_1',
        changes: [{ path: 'description', from: 'office', to: 'office (temp)' }],
      },
      { action: 'unchanged', kind: 'ipPolicy', group: 'ipPolicies', name: 'ipPolicy/lab' },
      {
        action: 'create',
        kind: 'credential',
        group: 'credentials',
        name: 'credential/laptop',
        fields: { description: 'laptop' },
      },
    ],
    untouched: [],
    blockers: [],
    prune: true,
  },
};

const watched = (
  profileId: string,
  profileName: string,
  drift: Drift | null = null,
): DriftStatus => ({
  ...notWatched(profileId, profileName),
  watching: true,
  baselineAt: ago(3 * HOUR),
  baselineFrom: 'accept',
  lastCheck: { at: ago(5 * 60_000), requests: 12, error: null },
  nextCheckAt: new Date(Date.now() + 10 * 60_000).toISOString(),
  drift,
});

const LOCAL = 'prf_local0001';
const WORK = 'prf_work00001';

beforeEach(freshWindow);
afterEach(() => {
  delete document.documentElement.dataset['theme'];
  return page.viewport(1280, 800);
});

function openDrift(answers: ScriptedAnswers) {
  window.location.hash = '#/drift';
  const bridge = scriptedBridge(answers);
  render(App, { bridge });
  return bridge;
}

const region = (name: string) => page.getByRole('region', { name, exact: true });

it('lists every profile, the active one first: Watch when not watched, the baseline and checks when watched', async () => {
  let answerCheck: (status: DriftStatus) => void = () => undefined;
  const bridge = openDrift({
    'drift.state': () => [watched(WORK, 'Work'), notWatched(LOCAL, 'Local sandbox')],
    'drift.watch': () => watched(LOCAL, 'Local sandbox'),
    'drift.check': () => new Promise<DriftStatus>((resolve) => (answerCheck = resolve)),
  });
  const work = region('Work');
  // Each time is the one TimeValue, whose exact time (for hovering) sits in the text between.
  await expect
    .element(work.getByText(/^Baseline kept/))
    .toHaveTextContent(/^Baseline kept 3 hours ago.*, when you accepted a change/);
  await expect
    .element(work.getByText(/^Last checked/))
    .toHaveTextContent(/^Last checked 5 minutes ago.* \(12 requests\)\.$/);
  await expect
    .element(work.getByText(/^Next check/))
    .toHaveTextContent(/^Next check in 10 minutes.*\.$/);
  await expect.element(work.getByText(/No drift/)).toBeVisible();
  const names = [...document.querySelectorAll('[data-profile] h2 > :first-child')].map(
    (name) => name.textContent,
  );
  expect(names).toEqual(['Local sandbox', 'Work']);
  expect(document.getElementById('content')?.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);

  const local = region('Local sandbox');
  await local.getByRole('button', { name: 'Watch this account' }).click();
  expect(bridge.argsOf('drift.watch')).toEqual([{ profileId: LOCAL }]);
  const check = local.getByRole('button', { name: 'Check now' });
  await expect.element(check).toHaveFocus();
  await check.click();
  await expect.element(local.getByRole('button', { name: 'Checking…' })).toBeDisabled();
  answerCheck(watched(LOCAL, 'Local sandbox'));
  await expect.element(check).toBeEnabled();
});

it('stops watching only once confirmed; a call that fails says why in its profile', async () => {
  const bridge = openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox')],
    'drift.unwatch': () => notWatched(LOCAL, 'Local sandbox'),
    'drift.watch': { error: { code: 'DRIFT_UNAVAILABLE', message: 'Drift watch is not running' } },
  });
  const local = region('Local sandbox');
  const stop = local.getByRole('button', { name: 'Stop watching…' });
  await stop.click();
  await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
  expect(bridge.argsOf('drift.unwatch')).toBeUndefined();
  await expect.element(stop).toHaveFocus();
  await stop.click();
  await userEvent.click(page.getByRole('button', { name: 'Stop watching', exact: true }));
  expect(bridge.argsOf('drift.unwatch')).toEqual([{ profileId: LOCAL }]);
  await expect.element(local.getByRole('button', { name: 'Watch this account' })).toHaveFocus();
  await local.getByRole('button', { name: 'Watch this account' }).click();
  await expect.element(local.getByRole('alert')).toHaveTextContent(/Drift watch is not running/);
});

it('shows a drift: its summary, the diff from the baseline to the live account, the secret it cannot put back; Accept sends its id', async () => {
  const bridge = openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox', DRIFT)],
    'drift.accept': () => ({ ...watched(LOCAL, 'Local sandbox'), baselineAt: ago(0) }),
  });
  await expect.element(page.getByRole('link', { name: 'Drift 1 profile changed' })).toBeVisible();
  const local = region('Local sandbox');
  await expect.element(local.getByRole('heading', { level: 3, name: DRIFT.summary })).toBeVisible();
  const changes = local.getByRole('table', { name: 'Changes to ipPolicy/office' });
  const rows = changes
    .getByRole('row')
    .elements()
    .map((row) =>
      [...row.querySelectorAll('th, td')]
        .map((cell) => cell.textContent.replace(/\s+/g, ' ').trim())
        .join(' '),
    );
  expect(rows).toEqual(['Field Baseline Becomes Live', 'Description office → office (temp)']);
  await expect.element(local.getByText('New', { exact: true })).toBeVisible();
  await expect
    .element(
      local.getByText(/The secret of httpsEdgeRoute\/www\/api changed: it cannot be put back/),
    )
    .toBeVisible();

  await local.getByRole('button', { name: 'Accept' }).click();
  expect(bridge.argsOf('drift.accept')).toEqual([{ profileId: LOCAL, driftId: DRIFT.id }]);
  await expect
    .element(local.getByText(/Accepted: the live account is the baseline now/))
    .toBeVisible();
  await expect.element(page.getByRole('link', { name: 'Drift', exact: true })).toBeVisible();
});

it('an accept refused as stale says the account changed again, and shows the new drift', async () => {
  const again: Drift = { ...DRIFT, id: 'fedcba9876543210', summary: '2 IP policies updated' };
  let asked = 0;
  openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox', (asked += 1) === 1 ? DRIFT : again)],
    'drift.accept': {
      error: { code: 'DRIFT_STALE', message: 'The account changed again since this drift' },
    },
  });
  const local = region('Local sandbox');
  await local.getByRole('button', { name: 'Accept' }).click();
  await expect
    .element(local.getByRole('status'))
    .toHaveTextContent(/changed again since this was shown/);
  await expect.element(local.getByRole('heading', { level: 3, name: again.summary })).toBeVisible();
});

it('Export writes the live state; Put back shows the plan, applies it once confirmed, and is done', async () => {
  const plan: PlannedSnapshot = {
    ...DRIFT.changes,
    counts: { create: 0, update: 1, delete: 1, unchanged: 1 },
    steps: [
      {
        ...DRIFT.changes.steps[0]!,
        changes: [{ path: 'description', from: 'office (temp)', to: 'office' }],
      },
      {
        action: 'delete',
        kind: 'credential',
        group: 'credentials',
        name: 'credential/laptop',
        id: 'cr_1',
      },
    ],
    planId: 'plan-drift-1',
    sourceLabel: 'Baseline',
    targetLabel: 'Local sandbox',
    resumes: false,
  };
  const bridge = openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox', DRIFT)],
    'drift.putBack': () => plan,
    'snapshots.export': () => ({
      status: 'saved',
      path: '/home/me/live.json',
      resources: 3,
      containsSecrets: false,
    }),
    'snapshots.apply': () => {
      // Core keeps what it applied as the baseline before it answers: no drift any more.
      bridge.emit('drift.changed', [
        { ...watched(LOCAL, 'Local sandbox'), baselineFrom: 'apply', baselineAt: ago(0) },
      ]);
      return { ok: true, created: 0, updated: 1, deleted: 1, unchanged: 1, resumed: false };
    },
  });
  const local = region('Local sandbox');
  await local.getByRole('button', { name: 'Export the live state…' }).click();
  expect(bridge.argsOf('snapshots.export')?.[0]).toMatchObject({
    profileId: LOCAL,
    withSecrets: false,
  });
  await expect.element(local.getByText('Wrote 3 resources to /home/me/live.json.')).toBeVisible();
  await local.getByRole('button', { name: 'Put back…' }).click();
  expect(bridge.argsOf('drift.putBack')).toEqual([{ profileId: LOCAL }]);
  await expect
    .element(local.getByRole('heading', { name: 'Baseline → Local sandbox' }))
    .toBeVisible();
  await expect
    .element(local.getByRole('region', { name: 'Tunnel credentials to delete' }))
    .toBeVisible();
  await local.getByRole('button', { name: 'Apply to Local sandbox…' }).click();
  await userEvent.click(page.getByRole('button', { name: 'Apply', exact: true }));
  expect(bridge.argsOf('snapshots.apply')?.[0]).toMatchObject({ planId: 'plan-drift-1' });
  // Put back finishes: the plan and its progress go, what it did is said, and nothing drifted.
  await expect
    .element(
      local.getByRole('status').filter({
        hasText: 'Put back: Local sandbox is its baseline again (1 updated, 1 deleted).',
      }),
    )
    .toBeVisible();
  await expect
    .element(local.getByRole('button', { name: 'Close the plan' }))
    .not.toBeInTheDocument();
  await expect.element(local.getByRole('progressbar')).not.toBeInTheDocument();
  await expect.element(local.getByText(/^No drift/)).toBeVisible();
  const sidebarDrift = page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: /^Drift/ });
  await expect.element(sidebarDrift).not.toHaveTextContent(/\d/);
});

it('reads without overflow at 800×600 and 1280×800, light and dark', async () => {
  openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox', DRIFT), notWatched(WORK, 'Work')],
  });
  await expect.element(page.getByRole('heading', { level: 3, name: DRIFT.summary })).toBeVisible();
  for (const [w, h] of [
    [800, 600],
    [1280, 800],
  ] as const)
    for (const theme of ['light', 'dark']) {
      await page.viewport(w, h);
      document.documentElement.dataset['theme'] = theme;
      const content = document.getElementById('content')!;
      expect(content.scrollWidth, `${w}×${h}`).toBeLessThanOrEqual(content.clientWidth);
      await page.screenshot({
        path: `../../test-results/screenshots/drift-${w}x${h}-${theme}.png`,
      });
    }
});

it("Settings' drift fields refuse what is out of range at the field, and say what the share is in requests", async () => {
  window.location.hash = '#/settings';
  const bridge = scriptedBridge({ 'governor.state': () => budget(LOCAL, 0) });
  render(App, { bridge });
  const section = page.getByRole('region', { name: 'Drift' });
  await expect
    .element(
      section.getByText(
        /5 % of Local sandbox's limit of 120 requests per 60 s is at most 360 requests an hour/,
      ),
    )
    .toBeVisible();
  const every = section.getByLabelText('Check every (minutes)');
  await userEvent.fill(every, '2');
  await userEvent.tab();
  await expect.element(every).toHaveAttribute('aria-invalid', 'true');
  await expect
    .element(section.getByRole('alert'))
    .toHaveTextContent('Check every: a whole number of minutes from 5 to 1440');
  const share = section.getByLabelText('Share of the rate limit (%)');
  await userEvent.fill(share, '30');
  await userEvent.tab();
  await expect.element(share).toHaveAttribute('aria-invalid', 'true');
  expect(bridge.calls.some((c) => c.name === 'settings.update')).toBe(false);

  await userEvent.fill(every, '30');
  await userEvent.tab();
  await expect.element(every).toHaveAttribute('aria-invalid', 'false');
  expect(bridge.argsOf('settings.update')).toEqual([
    { drift: { intervalMinutes: 30, budgetPercent: 5 } },
  ]);
});

it("keeps what core's event told over a check's answer that was overtaken on its way", async () => {
  // The check found the drift and core told every window; its answer, older, says nothing yet.
  const bridge: ReturnType<typeof openDrift> = openDrift({
    'drift.state': () => [watched(LOCAL, 'Local sandbox')],
    'drift.check': () => {
      bridge.emit('drift.changed', [watched(LOCAL, 'Local sandbox', DRIFT)]);
      return watched(LOCAL, 'Local sandbox');
    },
  });
  const local = region('Local sandbox');
  await local.getByRole('button', { name: 'Check now' }).click();
  await expect.element(local.getByRole('button', { name: 'Check now' })).toBeEnabled();
  await expect.element(local.getByText(DRIFT.summary)).toBeVisible();
});
