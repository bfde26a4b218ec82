import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import type {
  ApplyOutcome,
  OpenedSnapshot,
  OpenFileResult,
  PlannedSnapshot,
} from '../../shared/app/ipc/snapshots.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';
import { timeWords } from '../../shared/app/clock.ts';

const OPENED: OpenedSnapshot = {
  snapshotId: 'snap1',
  fileName: 'prod.json',
  exportedAt: '2026-11-20T10:00:00.000Z',
  source: { apiUrl: 'https://api.example.com', profileName: 'Prod' },
  containsSecrets: true,
  resources: 5,
};

const PLAN: PlannedSnapshot = {
  planId: 'plan1',
  sourceLabel: 'prod.json',
  targetLabel: 'Work',
  resumes: false,
  prune: true,
  counts: { create: 1, update: 1, delete: 1, unchanged: 2 },
  steps: [
    {
      action: 'create',
      kind: 'ipPolicy',
      group: 'ipPolicies',
      name: 'ipPolicy/office',
      fields: { description: 'office' },
    },
    {
      action: 'unchanged',
      kind: 'ipPolicy',
      group: 'ipPolicies',
      name: 'ipPolicy/home',
      id: 'ipp_1',
    },
    {
      action: 'unchanged',
      kind: 'ipPolicy',
      group: 'ipPolicies',
      name: 'ipPolicy/lab',
      id: 'ipp_2',
    },
    {
      action: 'update',
      kind: 'httpsEdgeRoute',
      group: 'httpsEdgeRoutes',
      name: 'httpsEdgeRoute/www/api',
      id: 'edghtsrt_1',
      changes: [
        { path: 'description', from: 'old api', to: 'api' },
        {
          path: 'webhook_verification',
          from: null,
          to: { provider: 'github', secret: '********' },
        },
      ],
    },
    {
      action: 'delete',
      kind: 'credential',
      group: 'credentials',
      name: 'credential/ci',
      id: 'cr_9',
    },
  ],
  untouched: [],
  blockers: [],
};

function openSnapshots() {
  window.location.hash = '#/snapshots';
}

async function planFile(bridge: ReturnType<typeof scriptedBridge>) {
  render(App, { bridge });
  const file = new File(['{"format":"burrow-snapshot"}'], 'prod.json', {
    type: 'application/json',
  });
  await page.getByLabelText('Snapshot file', { exact: true }).upload(file);
  await expect.element(page.getByText(/5 resources exported/)).toBeVisible();
  await page.getByLabelText('Also delete what the file does not have').click();
  await page.getByRole('button', { name: 'Plan', exact: true }).click();
}

it('shows a plan as a diff: by kind in order, with counts, labels, old → new, secrets masked', async () => {
  openSnapshots();
  const bridge = scriptedBridge({
    'snapshots.open': () => OPENED,
    'snapshots.plan': () => PLAN,
  });
  await planFile(bridge);
  expect(bridge.argsOf('snapshots.open')).toEqual([
    { fileName: 'prod.json', text: '{"format":"burrow-snapshot"}' },
  ]);
  expect(bridge.argsOf('snapshots.plan')?.[0]).toMatchObject({
    source: { type: 'snapshot', snapshotId: 'snap1' },
    targetProfileId: 'prf_local0001',
    prune: true,
  });
  await expect.element(page.getByRole('heading', { name: 'prod.json → Work' })).toBeVisible();
  await expect
    .element(page.getByLabelText('Counts'))
    .toHaveTextContent('1 to create 1 to update 1 to delete 2 unchanged');
  const headings = page
    .getByRole('heading', { level: 3 })
    .elements()
    .map((h) => h.textContent);
  expect(headings).toEqual([
    'IP policies 1 to create · 2 unchanged',
    'HTTPS edge routes 1 to update',
    'Tunnel credentials 1 to delete',
  ]);
  const policies = page.getByRole('region', { name: 'IP policies' });
  await expect.element(policies.getByText('Description')).toBeVisible();
  await expect.element(policies.getByText('ipPolicy/home')).not.toBeVisible();
  await policies.getByText('Show unchanged').click();
  await expect.element(policies.getByText('ipPolicy/home')).toBeVisible();

  const changes = page.getByRole('table', { name: 'Changes to httpsEdgeRoute/www/api' });
  const rows = changes
    .getByRole('row')
    .elements()
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent).join(' '));
  expect(rows[1]?.replace(/\s+/g, ' ').trim()).toBe('Description old api → api');
  // A module as people read it, its members as items, the provider by name; its JSON on demand.
  const webhook = changes.getByRole('row').nth(2);
  await expect.element(webhook.getByRole('cell').first()).toHaveTextContent('(none)');
  const after = webhook.getByRole('cell').last();
  await expect.element(after.getByRole('listitem').first()).toHaveTextContent('provider: GitHub');
  await expect.element(after.getByRole('listitem').last()).toHaveTextContent('secret: ********');
  await expect.element(after.getByText('"provider": "github"')).not.toBeVisible();
  await after.getByText('Show JSON').click();
  await expect.element(after.getByText('"provider": "github"')).toBeVisible();
  await expect.element(page.getByText('credential/ci')).toBeVisible();
});

it('a bad file: the error names what is wrong, and there is nothing to plan', async () => {
  openSnapshots();
  const bridge = scriptedBridge({
    'snapshots.open': {
      error: {
        code: 'SNAPSHOT_INVALID',
        message: 'bad.json: Not a Burrow snapshot: version Invalid input: expected 1',
      },
    },
  });
  render(App, { bridge });
  await page.getByLabelText('Snapshot file', { exact: true }).upload(new File(['{}'], 'bad.json'));
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('bad.json: Not a Burrow snapshot: version Invalid input: expected 1');
  await expect.element(page.getByRole('button', { name: 'Plan', exact: true })).toBeDisabled();
});

it('a file too large for browser mode is refused in the page, saying what to do instead', async () => {
  openSnapshots();
  const bridge = scriptedBridge();
  render(App, { bridge });
  // Quotes double as they are escaped into the call: 600 kB of them are 1.2 MB on the wire.
  const big = new File([`{"a":"${'"'.repeat(600_000)}"}`], 'big.json');
  await page.getByLabelText('Snapshot file', { exact: true }).upload(big);
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('big.json is larger than browser mode can send in one call');
  expect(bridge.argsOf('snapshots.open')).toBeUndefined();
});

it('applies with progress and time left; a failure says the error, the step and what was done', async () => {
  openSnapshots();
  let finish: (outcome: ApplyOutcome) => void = () => undefined;
  const bridge = scriptedBridge({
    'snapshots.open': () => OPENED,
    'snapshots.plan': () => PLAN,
    'snapshots.apply': () => new Promise<ApplyOutcome>((resolve) => (finish = resolve)),
  });
  await planFile(bridge);
  await page.getByRole('button', { name: 'Apply to Work…' }).click();
  await page
    .getByRole('dialog', { name: 'Apply to Work?' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect.poll(() => bridge.argsOf('snapshots.apply')).toBeDefined();
  const { requestId } = bridge.argsOf('snapshots.apply')![0] as { requestId: string };
  bridge.emit('snapshots.progress', {
    requestId,
    phase: 'applying',
    done: 1,
    total: 3,
    current: 'update httpsEdgeRoute/www/api',
    remainingMs: 4200,
  });
  const status = page.getByRole('main').getByRole('status');
  await expect
    .element(status)
    .toHaveTextContent(/^1 of 3 steps: update httpsEdgeRoute\/www\/api · about 5 s left Cancel$/);
  await expect
    .element(page.getByRole('progressbar', { name: 'Applying' }))
    .toHaveAttribute('value', '1');

  finish({
    ok: false,
    error: { code: 'ERR_SERVICE_404', message: 'not found', operationId: 'op_1' },
    step: { action: 'update', name: 'httpsEdgeRoute/www/api' },
    done: [{ action: 'create', name: 'ipPolicy/office' }],
    cancelled: false,
  });
  const alert = page.getByRole('alert');
  await expect
    .element(alert)
    .toHaveTextContent('The apply stopped at update httpsEdgeRoute/www/api.');
  await expect.element(alert).toHaveTextContent('ERR_SERVICE_404');
  await expect.element(alert).toHaveTextContent('op_1');
  await expect.element(alert).toHaveTextContent('Already done: 1 step');
});

it('plans one profile against another, and says what an apply did', async () => {
  openSnapshots();
  const bridge = scriptedBridge({
    'snapshots.plan': () => ({ ...PLAN, sourceLabel: 'Work', targetLabel: 'Local sandbox' }),
    'snapshots.apply': () => ({
      ok: true,
      created: 1,
      updated: 1,
      deleted: 1,
      unchanged: 2,
      resumed: false,
    }),
  });
  render(App, { bridge });
  await page.getByLabelText('Another profile').click();
  await expect.element(page.getByLabelText('Source profile')).toHaveValue('prf_work00001');
  await expect.element(page.getByLabelText('Also delete what Work does not have')).toBeVisible();
  await page.getByRole('button', { name: 'Plan', exact: true }).click();
  expect(bridge.argsOf('snapshots.plan')?.[0]).toMatchObject({
    source: { type: 'profile', profileId: 'prf_work00001' },
    targetProfileId: 'prf_local0001',
    prune: false,
  });
  // The diff is read first: the button that applies it comes after it.
  const diff = page.getByRole('heading', { name: /→ Local sandbox$/ });
  const applyButton = page.getByRole('button', { name: 'Apply to Local sandbox…' });
  await expect.element(diff).toBeVisible();
  const order = diff.element().compareDocumentPosition(applyButton.element());
  expect(order & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  await applyButton.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
  await expect
    .element(
      page.getByText('Applied to Local sandbox: 1 created, 1 updated, 1 deleted, 2 unchanged.'),
    )
    .toBeVisible();
  // Applied, its plan is done with: the diff goes, the outcome stays.
  await expect.element(diff).not.toBeInTheDocument();
});

it('in the desktop app, opens a snapshot through the OS dialog, and the page input only without one', async () => {
  openSnapshots();
  let answer: OpenFileResult = { status: 'opened', snapshot: OPENED };
  const bridge = scriptedBridge({
    'app.info': () => ({ name: 'Burrow', version: '1.2.3', shell: 'electron' }),
    'snapshots.openFile': () => answer,
  });
  render(App, { bridge });
  const choose = page.getByRole('button', { name: 'Choose a snapshot file…' });
  await expect.element(choose).toHaveAccessibleDescription('Snapshot file');
  await expect
    .element(page.getByLabelText('Snapshot file', { exact: true }))
    .not.toBeInTheDocument();
  await choose.click();
  await expect.element(page.getByText(/5 resources exported/)).toBeVisible();
  await expect.element(page.getByText('prod.json', { exact: true })).toBeVisible();
  await expect.element(page.getByRole('button', { name: 'Plan', exact: true })).toBeEnabled();
  expect(bridge.argsOf('snapshots.open')).toBeUndefined();

  // A shell without the dialog after all: the page's own input.
  answer = { status: 'unavailable', reason: 'Not available here: choose the file in the page' };
  await choose.click();
  await expect.element(page.getByLabelText('Snapshot file', { exact: true })).toBeVisible();
});

// When it stopped as every time reads: relative within a day, the locale's date and time before.
const stoppedItem = () =>
  page
    .getByRole('listitem')
    .filter({ hasText: `An apply to Staging stopped ${timeWords('2026-11-12T15:30:00.000Z')}` });

it('lists a stopped apply where applies are offered; Carry on shows its plan and applies it with progress', async () => {
  openSnapshots();
  const staging = {
    journalId: '0123456789abcdef',
    target: 'Staging',
    source: 'prod.json',
    stoppedAt: '2026-11-12T15:30:00.000Z',
    done: 1,
    total: 3,
  };
  let stopped = [staging];
  let finish: (outcome: ApplyOutcome) => void = () => undefined;
  const bridge = scriptedBridge({
    'snapshots.stopped': ({ profileId }: { profileId: string }) =>
      profileId === 'prf_work00001' ? stopped : [],
    'snapshots.carryOn': () => ({
      ...PLAN,
      planId: 'plan2',
      targetLabel: 'Staging',
      resumes: true,
    }),
    'snapshots.apply': () => new Promise<ApplyOutcome>((resolve) => (finish = resolve)),
  });
  render(App, { bridge });
  const item = stoppedItem();
  await expect.element(item).toHaveTextContent('prod.json, 1 of 3 changes made');

  // Carry on: the plan it will run, then the usual apply, asked first, with its progress.
  await item.getByRole('button', { name: 'Carry on' }).click();
  expect(bridge.argsOf('snapshots.carryOn')).toEqual([
    { profileId: 'prf_work00001', journalId: '0123456789abcdef' },
  ]);
  await expect.element(page.getByText('ipPolicy/office')).toBeVisible();
  await page.getByRole('button', { name: 'Apply to Staging…' }).click();
  await page
    .getByRole('dialog', { name: 'Apply to Staging?' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect.poll(() => bridge.argsOf('snapshots.apply')?.[0]).toMatchObject({ planId: 'plan2' });
  const { requestId } = bridge.argsOf('snapshots.apply')![0] as { requestId: string };
  bridge.emit('snapshots.progress', {
    requestId,
    phase: 'applying',
    done: 2,
    total: 3,
    current: 'delete credential/ci',
    remainingMs: null,
  });
  await expect
    .element(page.getByRole('progressbar', { name: 'Applying' }))
    .toHaveAttribute('value', '2');
  stopped = [];
  finish({ ok: true, created: 1, updated: 1, deleted: 1, unchanged: 2, resumed: true });
  await expect
    .element(page.getByText('Applied to Staging, carrying on an earlier apply'))
    .toBeVisible();
  await expect.element(page.getByText('An apply to Staging stopped')).not.toBeInTheDocument();
});

it('asks before discarding a stopped apply, and lists it no more', async () => {
  openSnapshots();
  let stopped = [
    {
      journalId: 'fedcba9876543210',
      target: 'Staging',
      source: 'Work',
      stoppedAt: '2026-11-12T15:30:00.000Z',
      done: 0,
      total: 2,
    },
  ];
  const bridge = scriptedBridge({
    'snapshots.stopped': ({ profileId }: { profileId: string }) =>
      profileId === 'prf_local0001' ? stopped : [],
    'snapshots.discard': () => {
      stopped = [];
    },
  });
  render(App, { bridge });
  const item = stoppedItem();
  await item.getByRole('button', { name: 'Discard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard the apply to Staging?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('snapshots.discard')).toBeUndefined();
  await expect.element(item).toBeVisible();

  await item.getByRole('button', { name: 'Discard' }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect
    .poll(() => bridge.argsOf('snapshots.discard'))
    .toEqual([{ profileId: 'prf_local0001', journalId: 'fedcba9876543210' }]);
  await expect.element(page.getByText('An apply to Staging stopped')).not.toBeInTheDocument();
});
