import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent, type Locator } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what fits depends on them.
import '../../renderer/src/app.css';
import type { Agent } from '../../shared/app/agents.ts';
import type {
  BulkImpact,
  BulkRequest,
  BulkResult,
  Rollout,
  RolloutAgent,
  RolloutImpact,
  RolloutRequest,
} from '../../shared/app/fleet.ts';
import { session as someSession } from '../support/tunnel-sessions.ts';
import { agentsOf, restartOne, someAgent, watched } from './support/agents.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

const [LOCAL, WORK] = SOME_PROFILES.profiles.map((p) => p.id) as [string, string];

function agentOf(profileId: string, name: string, session: Parameters<typeof someSession>[0] = {}) {
  return someAgent(profileId, name, {
    session: someSession({ metadata: name, region: 'eu', ...session }),
  });
}

/** What core's run says `action` did to `agent`: done, or with `failed`, no answer from it. */
function resultFor(
  agent: Agent,
  action: 'restart' | 'stop',
  { failed = false, since = agent.since } = {},
): BulkResult['results'][number] {
  const subject = { action, profileId: agent.profileId, sessionId: agent.session.id };
  return {
    agent: { profileId: agent.profileId, agentId: agent.id },
    name: agent.name,
    since,
    result: failed
      ? {
          ok: false,
          ...subject,
          step: action,
          reason: 'the agent did not answer',
          errorCode: 'AGENT_TIMEOUT',
          operationId: null,
        }
      : { ok: true, ...subject },
  };
}

/** Two profiles' agents: Local has three Linux boxes, Work a Windows one and an old Mac. */
const FLEET = {
  [LOCAL]: [
    agentOf(LOCAL, 'build-box', { agent_version: '3.3.0' }),
    agentOf(LOCAL, 'cache-box', { agent_version: '3.1.2' }),
    { ...agentOf(LOCAL, 'db-box', { region: 'us' }), state: 'offline' as const },
  ],
  [WORK]: [
    agentOf(WORK, 'win-box', { os: 'windows', agent_version: '3.3.0' }),
    agentOf(WORK, 'mac-box', { os: 'darwin', agent_version: '2.9.0' }),
  ],
};
const ALL: Agent[] = Object.values(FLEET).flat();
const byName = (name: string) => ALL.find((a) => a.name === name) as Agent;

function showing(hash: string, answers: Parameters<typeof scriptedBridge>[0] = {}) {
  window.location.hash = hash;
  const bridge = scriptedBridge({
    'sessions.snapshot': () => watched(LOCAL, WORK),
    'agents.snapshot': () => agentsOf(FLEET),
    ...answers,
  });
  render(App, { bridge });
  return bridge;
}

const row = (name: string) => page.getByRole('row', { name, exact: true });
const checkbox = (name: string) => page.getByRole('checkbox', { name: `Select ${name}` });
const button = (name: string) => page.getByRole('button', { name, exact: true });

/** A rollout panel's row of each agent named, showing its step in these words. */
async function expectSteps(panel: Locator, steps: Readonly<Record<string, string | RegExp>>) {
  for (const [name, words] of Object.entries(steps))
    await expect.element(panel.getByRole('row', { name, exact: true })).toHaveTextContent(words);
}

beforeEach(async () => {
  await page.viewport(1280, 800);
});

it("lists every profile's agents under their names, with counts, and filters kept in the address", async () => {
  showing('#/sessions');
  await expect.element(row('win-box')).toBeVisible();
  await expect.element(page.getByRole('row', { name: 'Local sandbox 3 agents' })).toBeVisible();
  await expect.element(page.getByRole('row', { name: 'Work 2 agents' })).toBeVisible();
  await expect.element(page.getByText('4 online · 1 offline', { exact: true })).toBeVisible();

  await page.getByRole('combobox', { name: 'OS' }).selectOptions('windows');
  await expect.element(row('build-box')).not.toBeInTheDocument();
  await expect.element(row('win-box')).toBeVisible();
  expect(window.location.hash).toBe('#/sessions?os=windows');
  // Only Work has one left: Local's heading goes with its agents.
  await expect
    .element(page.getByRole('row', { name: 'Local sandbox 3 agents' }))
    .not.toBeInTheDocument();
  await expect.element(page.getByText('1 online', { exact: true })).toBeVisible();

  // Combined, from a link: Linux, below 3.2.0, or not the newest of its major.
  window.location.hash = '#/sessions?os=linux&below=3.2.0';
  await expect.element(row('cache-box')).toBeVisible();
  await expect.element(row('build-box')).not.toBeInTheDocument();
  window.location.hash = '#/sessions?outdated=1';
  await expect.element(row('cache-box')).toBeVisible();
  await expect.element(row('db-box')).toBeVisible();
  await expect.element(row('mac-box')).not.toBeInTheDocument();
  await expect
    .element(page.getByRole('checkbox', { name: 'Not the newest of its major' }))
    .toBeChecked();

  // Text over names and metadata, state and profile.
  window.location.hash = `#/sessions?state=offline`;
  await expect.element(row('db-box')).toBeVisible();
  await expect.element(row('cache-box')).not.toBeInTheDocument();
  window.location.hash = `#/sessions?profile=${WORK}&q=MAC`;
  await expect.element(row('mac-box')).toBeVisible();
  await expect.element(row('win-box')).not.toBeInTheDocument();

  // A version that is not one says so, naming the field, and filters nothing.
  window.location.hash = '#/sessions';
  await page.getByRole('textbox', { name: 'Below version' }).fill('3.x');
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('Below version must look like 3.2.1.');
});

it('filters below a version as it is typed, a half-typed one keeping the list whole', async () => {
  showing('#/sessions');
  const below = page.getByRole('textbox', { name: 'Below version' });
  await userEvent.type(below, '3.');
  await expect.element(below).toHaveAccessibleDescription(/filters once it is whole/);
  for (const name of ['build-box', 'cache-box', 'db-box', 'win-box', 'mac-box'])
    await expect.element(row(name)).toBeVisible();
  // No Enter and no leaving the field: the last digit filters.
  await userEvent.type(below, '2.0');
  await expect.element(row('build-box')).not.toBeInTheDocument();
  await expect.element(row('cache-box')).toBeVisible();
  await expect.element(row('mac-box')).toBeVisible();
  await expect.element(below).toHaveFocus();
  await expect.element(below).toHaveValue('3.2.0');
  expect(window.location.hash).toBe('#/sessions?below=3.2.0');
  await expect.element(page.getByRole('alert')).not.toBeInTheDocument();
});

it('keeps the focus and every letter when two land before the page follows the first', async () => {
  showing('#/sessions');
  const below = page.getByRole('textbox', { name: 'Below version' });
  await userEvent.click(below);
  const field = below.element() as HTMLInputElement;
  // Two keystrokes in one turn, as a busy machine delivers them: two addresses, two events.
  for (const value of ['3.2', '3.2.']) {
    field.value = value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
  expect(window.location.hash).toBe('#/sessions?below=3.2.');
  expect(document.activeElement).toBe(field);
  await userEvent.keyboard('0');
  await expect.element(below).toHaveValue('3.2.0');
  await expect.element(row('build-box')).not.toBeInTheDocument();
});

it('takes a profile in the address by its name, and says when no profile has the name', async () => {
  showing('#/sessions?profile=work');
  await expect.element(row('win-box')).toBeVisible();
  await expect.element(row('build-box')).not.toBeInTheDocument();
  await expect
    .element(page.getByRole('combobox', { name: 'Profile', exact: true }))
    .toHaveDisplayValue('Work');

  window.location.hash = '#/sessions?profile=Staging';
  await expect
    .element(page.getByRole('form', { name: 'Filters' }).getByRole('alert'))
    .toHaveTextContent('No profile is named “Staging”.');
  await expect.element(page.getByText('No agent matches these filters.')).toBeVisible();
  for (const name of ['build-box', 'win-box'])
    await expect.element(row(name)).not.toBeInTheDocument();
  await expect.element(page.getByRole('combobox', { name: 'OS' })).toBeVisible();
});

it('selects with a click, a shift-click range across profiles, and all that match', async () => {
  showing('#/sessions');
  // Core's order within each profile, Local's first: build, cache, db, then win, mac.
  await checkbox('cache-box').click();
  await checkbox('win-box').click({ modifiers: ['Shift'] });
  for (const name of ['cache-box', 'db-box', 'win-box'])
    await expect.element(checkbox(name)).toBeChecked();
  for (const name of ['build-box', 'mac-box'])
    await expect.element(checkbox(name)).not.toBeChecked();
  await expect.element(page.getByText('3 selected')).toBeVisible();

  window.location.hash = '#/sessions?os=linux';
  await button('Select all 3 matching').click();
  await expect.element(checkbox('build-box')).toBeChecked();
  // The win-box picked before stays picked, hidden by the filter.
  await expect.element(page.getByText('4 selected')).toBeVisible();
  await button('Clear selection').click();
  await expect.element(page.getByText(/selected$/)).not.toBeInTheDocument();
});

/** The list as it reads: each profile's heading, and the agents' rows under it in order. */
function listedUnderHeadings(): [string, string[]][] {
  const groups: [string, string[]][] = [];
  for (const tr of document.querySelectorAll('tbody tr:not(.spacer)')) {
    const heading = tr.querySelector('th[scope="rowgroup"]')?.textContent?.trim();
    const name = SOME_PROFILES.profiles.find((p) => heading?.startsWith(p.name))?.name;
    if (name) groups.push([name, []]);
    else groups.at(-1)?.[1].push(tr.getAttribute('aria-label') ?? '');
  }
  return groups;
}

it("keeps each row under its own profile's heading when the filters go with the pointer on the list", async () => {
  const bridge = showing('#/sessions?below=3.3.0');
  await expect.element(row('mac-box')).toBeVisible();
  await button('Select all 3 matching').click();
  // The pointer rests on the list (held still, so rows do not move under it) as the address
  // bar clears the filters.
  await row('cache-box').hover();
  window.location.hash = '#/sessions';
  await expect.element(row('win-box')).toBeVisible();
  // Core's order within each profile: not the picked first, not Local's under Work.
  expect(listedUnderHeadings()).toEqual([
    ['Local sandbox', ['build-box', 'cache-box', 'db-box']],
    ['Work', ['win-box', 'mac-box']],
  ]);

  // An agent that comes while the pointer holds the rows goes under its own profile too.
  const newcomer = agentOf(LOCAL, 'aaa-box');
  bridge.emit('agents.changed', agentsOf({ ...FLEET, [LOCAL]: [newcomer, ...ALL.slice(0, 3)] }));
  await expect.element(row('aaa-box')).toBeVisible();
  expect(listedUnderHeadings()).toEqual([
    ['Local sandbox', ['build-box', 'cache-box', 'db-box', 'aaa-box']],
    ['Work', ['win-box', 'mac-box']],
  ]);
});

it("asks once with core's sentence and who is left out, then shows each failure in its row", async () => {
  const impact: BulkImpact = {
    action: 'restart',
    included: [LOCAL, LOCAL].map((profileId, i) => ({
      profileId,
      agentId: byName(['build-box', 'cache-box'][i] ?? '').id,
    })),
    leftOut: [
      {
        agent: { profileId: WORK, agentId: byName('win-box').id },
        name: 'win-box',
        reason: 'runs on Windows: restart it yourself',
      },
    ],
    profiles: 1,
    summary:
      'Restart 2 agents on 1 profile; 1 runs on Windows and cannot be restarted remotely: it is left out.',
  };
  const result: BulkResult = {
    action: 'restart',
    results: [
      resultFor(byName('build-box'), 'restart'),
      resultFor(byName('cache-box'), 'restart', { failed: true }),
    ],
    leftOut: impact.leftOut,
    summary: '1 restarted, 1 failed (the agent did not answer); 1 left out',
  };
  const bridge = showing('#/sessions', {
    'fleet.impact': () => impact,
    'fleet.run': () => result,
  });
  await checkbox('build-box').click();
  await checkbox('win-box').click({ modifiers: ['Shift'] });
  await button('Restart').click();

  const dialog = page.getByRole('dialog', { name: 'Restart: 2 agents' });
  await expect.element(dialog).toHaveTextContent(impact.summary);
  await expect
    .element(dialog.getByRole('list', { name: 'Left out' }))
    .toHaveTextContent('win-box: runs on Windows: restart it yourself');
  const asked = bridge.argsOf('fleet.impact') as [BulkRequest];
  expect(asked[0].agents.map((a) => a.agentId).sort()).toEqual(
    ['build-box', 'cache-box', 'db-box', 'win-box'].map((n) => byName(n).id).sort(),
  );
  expect(bridge.argsOf('fleet.run')).toBeUndefined();

  await dialog.getByRole('button', { name: 'Restart 2 agents' }).click();
  await expect.element(page.getByRole('status').filter({ hasText: result.summary })).toBeVisible();
  // A failure is said in its row; a success by the agent's state, as core tells it.
  await expect.element(row('cache-box')).toHaveTextContent('Failed: the agent did not answer');
  await expect.element(row('build-box')).not.toHaveTextContent('Failed');
});

it("says a bulk action's outcome once, and lets it go once the agents move on", async () => {
  const [build, cache] = [byName('build-box'), byName('cache-box')];
  const picked = [build, cache];
  const refs = picked.map((a) => ({ profileId: a.profileId, agentId: a.id }));
  const actedAt = Date.now();
  const result: BulkResult = {
    action: 'stop',
    results: picked.map((a) => resultFor(a, 'stop', { since: actedAt })),
    leftOut: [],
    summary: '2 stopped',
  };
  const bridge = showing('#/sessions', {
    'fleet.impact': () => ({
      action: 'stop',
      included: refs,
      leftOut: [],
      profiles: 1,
      summary: 'Stop 2 agents on 1 profile.',
    }),
    'fleet.run': () => result,
    'rollout.start': () => rolloutOf(['pending']),
  });
  const fleetWith = (...changed: Agent[]) =>
    agentsOf({
      ...FLEET,
      [LOCAL]: ALL.filter((a) => a.profileId === LOCAL).map(
        (a) => changed.find((c) => c.id === a.id) ?? a,
      ),
    });
  const summary = page.getByRole('status').filter({ hasText: '2 stopped' });
  await checkbox('build-box').click();
  await checkbox('cache-box').click();
  await button('Stop').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop 2 agents' }).click();
  await expect.element(summary).toBeVisible();

  // Core confirms them stopped: the row says so once, the summary still holds.
  const stopped = (a: Agent) => ({ ...a, state: 'stopped' as const, since: actedAt + 1 });
  bridge.emit('agents.changed', fleetWith(stopped(build), stopped(cache)));
  await expect.element(row('build-box')).toHaveTextContent(/Stopped/);
  expect(
    row('build-box')
      .element()
      .textContent?.match(/Stopped/g),
  ).toHaveLength(1);
  await expect.element(summary).toBeVisible();

  // Back, on new sessions: nothing of the stop is true any more.
  const back = (a: Agent) => ({
    ...a,
    since: actedAt + 2,
    session: someSession({ ...a.session, id: `${a.session.id}_next` }),
  });
  bridge.emit('agents.changed', fleetWith(back(build), back(cache)));
  await expect.element(row('build-box')).toHaveTextContent('Online');
  await expect.element(row('build-box')).not.toHaveTextContent(/Stopped/);
  await expect.element(row('cache-box')).not.toHaveTextContent(/Stopped/);
  await expect.element(summary).not.toBeInTheDocument();

  // Updated: the state says it, once.
  const updated = {
    ...back(build),
    state: 'update-ready' as const,
    note: 'updated · restart to apply',
    since: actedAt + 3,
  };
  bridge.emit('agents.changed', fleetWith(updated, back(cache)));
  await expect.element(row('build-box')).toHaveTextContent('Updated · restart to run it');
  await expect.element(row('build-box')).not.toHaveTextContent('restart to apply');
});

it("clears a bulk action's summary when a rolling update starts", async () => {
  const cache = byName('cache-box');
  const ref = { profileId: LOCAL, agentId: cache.id };
  showing('#/sessions', {
    'fleet.impact': () => restartOne(ref),
    'fleet.run': (): BulkResult => ({
      action: 'restart',
      results: [resultFor(cache, 'restart', { failed: true })],
      leftOut: [],
      summary: '0 restarted, 1 failed (no answer)',
    }),
    'rollout.impact': () => impactOf(['cache-box']),
    'rollout.start': () => rolloutOf(['pending']),
  });
  await checkbox('cache-box').click();
  await button('Restart').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restart 1 agent' }).click();
  const summary = page.getByRole('status').filter({ hasText: '1 failed (no answer)' });
  await expect.element(summary).toBeVisible();
  await expect.element(row('cache-box')).toHaveTextContent('Failed: the agent did not answer');

  await button('Update and restart, a few at a time…').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
  await expect.element(page.getByRole('region', { name: /Rolling update/ })).toBeVisible();
  await expect.element(summary).not.toBeInTheDocument();
  const listed = page
    .getByRole('table', { name: 'Agents', exact: true })
    .getByRole('row', { name: 'cache-box' });
  await expect.element(listed).not.toHaveTextContent('Failed');
});

function rolloutOf(
  states: RolloutAgent['state'][],
  state: Rollout['state'] = 'running',
  ended: Pick<Rollout, 'endedAt' | 'line'> | null = null,
): Rollout {
  const names = ['build-box', 'cache-box', 'win-box', 'mac-box'];
  const agents = names.map((name, i): RolloutAgent => {
    const agent = byName(name);
    return {
      agent: { profileId: agent.profileId, agentId: agent.id },
      name,
      profileName: agent.profileId === LOCAL ? 'Local sandbox' : 'Work',
      os: agent.session.os,
      batch: i,
      state: states[i] ?? 'pending',
      // Made as the rollout starts: its countdown is far from 0 when the panel is read.
      until: states[i] === 'waiting' ? Date.now() + 20_000 : null,
      versionBefore: '3.1.2',
      versionAfter: states[i] === 'done' ? '3.3.0' : null,
      reason: REASONS[states[i] ?? 'pending'] ?? null,
    };
  });
  const finished = agents.filter(
    (a) => !['pending', 'updating', 'waiting'].includes(a.state),
  ).length;
  return {
    id: 'ro_1',
    state,
    options: { batch: 1, canary: 0, onFailure: 'skip', onlineTimeoutMs: 60_000 },
    agents,
    finished,
    total: agents.length,
    startedAt: Date.now() - 60_000,
    endedAt: null,
    remainingMs: 180_000,
    line: `Rolling update: ${finished} of ${agents.length}`,
    dismissed: false,
    ...ended,
  };
}

const REASONS: Partial<Record<RolloutAgent['state'], string>> = {
  failed: 'update checks are off on this agent',
  cancelled: 'Cancelled once updated: restart it to run the new version',
};

/** Core's word on a rolling update of `names`: all of them updated. */
function impactOf(names: string[], more: Partial<RolloutImpact> = {}): RolloutImpact {
  return {
    included: names.map((n) => ({ profileId: byName(n).profileId, agentId: byName(n).id })),
    windows: 0,
    leftOut: [],
    unsure: [],
    profiles: 1,
    summary: `Update and restart ${names.length} agents on 1 profile.`,
    ...more,
  };
}

it('says what a rolling update will do before Start, and starts only those it can update', async () => {
  const leftOut = (name: string, reason: string) => ({
    agent: { profileId: byName(name).profileId, agentId: byName(name).id },
    name,
    reason,
  });
  const bridge = showing('#/sessions', {
    'rollout.impact': () =>
      impactOf(['cache-box'], {
        leftOut: [leftOut('db-box', 'Not online (offline).')],
        unsure: [
          leftOut(
            'win-box',
            'Already on 3.3.0, the newest 3.x among your agents: no newer version is known.',
          ),
        ],
        summary:
          'Update and restart 1 agent on 1 profile; 1 already runs the newest version known; 1 cannot update now.',
      }),
    'rollout.start': () => rolloutOf(['pending']),
  });
  await checkbox('cache-box').click();
  await checkbox('win-box').click({ modifiers: ['Shift'] });
  await button('Update and restart, a few at a time…').click();

  const dialog = page.getByRole('dialog', { name: /a few at a time/ });
  await expect
    .element(dialog.getByText(/^Update and restart 1 agent on 1 profile; 1 already/))
    .toBeVisible();
  await expect
    .element(dialog.getByRole('list', { name: 'Left out' }))
    .toHaveTextContent('db-box: Not online (offline).');
  await expect
    .element(dialog.getByRole('list', { name: 'Likely nothing newer' }))
    .toHaveTextContent(/win-box: Already on 3\.3\.0/);
  const asked = bridge.argsOf('rollout.impact') as [{ agents: { agentId: string }[] }];
  expect(asked[0].agents).toHaveLength(3);

  // Tried on request only; Start says how many it starts.
  const tryToo = dialog.getByRole('checkbox', { name: /Try it too/ });
  await tryToo.click();
  await expect.element(dialog.getByRole('button', { name: 'Start: 2 agents' })).toBeVisible();
  await tryToo.click();
  await dialog.getByRole('button', { name: 'Start: 1 agent' }).click();
  const [request] = bridge.argsOf('rollout.start') as [RolloutRequest];
  expect(request.agents.map((a) => a.agentId)).toEqual([byName('cache-box').id]);
});

it('ends in one line of outcomes: each agent as it was left, the failed to retry, then dismissed', async () => {
  await page.viewport(800, 600);
  const line =
    'Rolling update stopped by a failure: 1 updated, 1 failed, 1 cancelled, 1 not started';
  const ended = rolloutOf(['done', 'failed', 'cancelled', 'not-started'], 'stopped', {
    endedAt: Date.now() - 5_000,
    line,
  });
  const bridge = showing('#/sessions', {
    'rollout.state': () => ended,
    'rollout.dismiss': () => ({ ...ended, dismissed: true }),
    'rollout.impact': () => impactOf(['cache-box']),
  });
  const panel = page.getByRole('region', { name: line });
  await expect.element(panel).toBeVisible();
  // Ended, it stays out of the way: a line, not half the window.
  expect(panel.element().getBoundingClientRect().height).toBeLessThan(600 * 0.2);

  await panel.getByText("Each agent's step").click();
  await expectSteps(panel, {
    'mac-box': 'Not started',
    'win-box': 'Cancelled once updated: restart it to run the new version',
    'cache-box': 'Failed: update checks are off on this agent',
  });

  await panel.getByRole('button', { name: 'Retry the failed' }).click();
  const dialog = page.getByRole('dialog', { name: /Update and restart 1 agent/ });
  await expect.element(dialog.getByRole('button', { name: 'Start: 1 agent' })).toBeVisible();
  expect(bridge.argsOf('rollout.impact')).toEqual([
    { agents: [{ profileId: LOCAL, agentId: byName('cache-box').id }] },
  ]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect
    .element(panel.getByRole('button', { name: 'Go on with the 1 not started' }))
    .toBeVisible();

  await panel.getByRole('button', { name: 'Dismiss' }).click();
  expect(bridge.argsOf('rollout.dismiss')).toEqual(['ro_1']);
  await expect.element(panel).not.toBeInTheDocument();
});

it('starts a rolling update with its options and follows it, pausing, resuming and cancelling', async () => {
  const started = () => rolloutOf(['done', 'waiting', 'restart-yourself', 'failed']);
  let current = started();
  const bridge = showing('#/sessions', {
    'rollout.start': () => (current = started()),
    'rollout.pause': () => (current = { ...current, state: 'paused' }),
    'rollout.resume': () => (current = { ...current, state: 'running' }),
    'rollout.cancel': () => (current = { ...current, state: 'cancelled' }),
    'rollout.impact': () => impactOf(['build-box', 'cache-box', 'win-box', 'mac-box']),
  });
  await checkbox('build-box').click();
  await checkbox('mac-box').click({ modifiers: ['Shift'] });
  await button('Update and restart, a few at a time…').click();

  const dialog = page.getByRole('dialog', { name: /a few at a time/ });
  await expect.element(dialog.getByRole('spinbutton', { name: 'Batch size' })).toHaveValue(1);
  await dialog.getByRole('spinbutton', { name: 'Online timeout (s)' }).fill('5');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect
    .element(dialog.getByRole('alert'))
    .toHaveTextContent('Online timeout must be a whole number from 10 to 600.');
  expect(bridge.argsOf('rollout.start')).toBeUndefined();
  await dialog.getByRole('spinbutton', { name: 'Online timeout (s)' }).fill('90');
  await dialog.getByRole('spinbutton', { name: 'Batch size' }).fill('2');
  await dialog.getByRole('spinbutton', { name: 'Canary batch' }).fill('1');
  await dialog.getByRole('radio', { name: 'Skip it and go on' }).click();
  await dialog.getByRole('button', { name: 'Start' }).click();
  const [request] = bridge.argsOf('rollout.start') as [RolloutRequest];
  expect(request.options).toEqual({
    batch: 2,
    canary: 1,
    onFailure: 'skip',
    onlineTimeoutMs: 90_000,
  });
  // The offline db-box is left out before Start, not at run time.
  expect(request.agents.map((a) => a.agentId)).toEqual(
    ['build-box', 'cache-box', 'win-box', 'mac-box'].map((n) => byName(n).id),
  );

  // The panel: how far, how long, each agent's step in words.
  const panel = page.getByRole('region', { name: 'Rolling update: 3 of 4' });
  await expect.element(panel).toHaveTextContent('about 3 min left');
  await expectSteps(panel, {
    'build-box': 'Done · 3.1.2 → 3.3.0',
    'cache-box': /Waiting [1-9]\d* s before restart/,
    'win-box': 'Updated · restart it yourself (Windows)',
    'mac-box': 'Failed: update checks are off on this agent',
  });
  // And a line under the header, on every screen, back to it.
  await page.getByRole('link', { name: 'Edges', exact: true }).click();
  await expect.element(page.getByRole('link', { name: 'Rolling update: 3 of 4' })).toBeVisible();
  await page.getByRole('link', { name: 'Rolling update: 3 of 4' }).click();

  await panel.getByRole('button', { name: 'Pause' }).click();
  expect(bridge.argsOf('rollout.pause')).toEqual(['ro_1']);
  await panel.getByRole('button', { name: 'Resume' }).click();
  expect(bridge.argsOf('rollout.resume')).toEqual(['ro_1']);

  // Cancel asks first; "Keep going" keeps it.
  await panel.getByRole('button', { name: 'Cancel update' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Keep going' }).click();
  expect(bridge.argsOf('rollout.cancel')).toBeUndefined();
  await panel.getByRole('button', { name: 'Cancel update' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel update' }).click();
  expect(bridge.argsOf('rollout.cancel')).toEqual(['ro_1']);
  await expect.element(panel.getByRole('status')).toHaveTextContent('cancelled');
  await expect.element(panel.getByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
}, 60_000);

it("shows core's rolling update on opening, and follows its events", async () => {
  const bridge = showing('#/edges', { 'rollout.state': () => rolloutOf(['done', 'updating']) });
  await expect.element(page.getByRole('link', { name: 'Rolling update: 1 of 4' })).toBeVisible();
  bridge.emit('rollout.changed', rolloutOf(['done', 'done', 'restart-yourself', 'done'], 'done'));
  await expect.element(page.getByRole('link', { name: /Rolling update/ })).not.toBeInTheDocument();
  await userEvent.keyboard('{Escape}');
});

it("keeps what core's events told over a start's answer that was overtaken on its way", async () => {
  // Over HTTP the events and the call's answer travel apart: the first agent's wait before its
  // restart is heard before the answer saying it was still waiting its turn.
  const bridge: ReturnType<typeof showing> = showing('#/sessions', {
    'rollout.impact': () => impactOf(['build-box', 'cache-box', 'win-box', 'mac-box']),
    'rollout.start': () => {
      bridge.emit('rollout.changed', rolloutOf(['waiting']));
      return rolloutOf(['pending']);
    },
    'rollout.pause': () => ({ ...rolloutOf(['waiting']), state: 'paused' }),
  });
  await checkbox('build-box').click();
  await checkbox('mac-box').click({ modifiers: ['Shift'] });
  await button('Update and restart, a few at a time…').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
  const panel = page.getByRole('region', { name: /^Rolling update/ });
  await expect
    .element(panel.getByRole('row', { name: 'build-box', exact: true }))
    .toHaveTextContent(/Waiting \d+ s before restart/);
  // A pause's answer is the newest word when no event came meanwhile.
  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect.element(panel.getByRole('button', { name: 'Resume' })).toBeVisible();
});
