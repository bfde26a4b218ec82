import { render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what fits in 800×600 depends on them.
import '../../renderer/src/app.css';
import type { Agent, AgentsSnapshot } from '../../shared/app/agents.ts';
import { Settings } from '../../shared/app/ipc/settings.ts';
import { unavailableSnapshot } from '../../shared/app/monitor.ts';
import type { TrayClickable, TrayModel } from '../../shared/app/tray.ts';
import { session as someSession } from '../support/tunnel-sessions.ts';
import { agentsOf, someAgent, watched } from './support/agents.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

const PROFILE = SOME_PROFILES.activeId ?? '';
const HOUR = 3_600_000;

const agent = (name: string, overrides: Partial<Agent> = {}) => someAgent(PROFILE, name, overrides);
const agents = (...list: Agent[]) => agentsOf({ [PROFILE]: list });

function open(hash = '#/sessions') {
  window.location.hash = hash;
}

/** The app on the Sessions screen, core answering with `first`, and the bridge to script more. */
function showing(first: AgentsSnapshot, answers: Parameters<typeof scriptedBridge>[0] = {}) {
  const bridge = scriptedBridge({
    'sessions.snapshot': () => watched(PROFILE),
    'agents.snapshot': () => first,
    ...answers,
  });
  render(App, { bridge });
  return bridge;
}

const row = (name: string) => page.getByRole('row', { name, exact: true });
/** The button in `agent`'s row that does `what` ("Restart", "Update and restart", …) to it. */
const button = (agent: string, what: string) =>
  row(agent).getByRole('button', { name: `${what} ${agent}`, exact: true });

beforeEach(async () => {
  await page.viewport(1280, 800);
});

it('says each state in its row, and keeps a gone agent dimmed with when it was last seen', async () => {
  open();
  const lost = agent('lost-box', { state: 'lost' });
  const gone = agent('gone-box', { state: 'offline', lastSeenAt: Date.now() - 3 * 60_000 });
  const bridge = showing(
    agents(lost, gone, agent('build-box', { note: 'restarted · new session ts_new' })),
    { 'agents.dismiss': () => agents(lost) },
  );
  await expect.element(row('lost-box')).toHaveTextContent('Not seen in the last poll');
  await expect.element(row('build-box')).toHaveTextContent('Online');
  await expect.element(row('build-box')).toHaveTextContent('restarted · new session ts_new');

  const goneRow = row('gone-box');
  await expect.element(goneRow).toHaveTextContent('Offline');
  await expect.element(goneRow).toHaveTextContent('last seen 3 minutes ago');
  // Dimmed: muted colours, not those of an online row.
  const colours = (name: string) => {
    const link = row(name).getByRole('link', { name }).element();
    return [
      getComputedStyle(link).color,
      getComputedStyle(link.closest('td') ?? link).backgroundColor,
    ];
  };
  const [dimmed, online] = [colours('gone-box'), colours('build-box')];
  expect(dimmed[0]).not.toBe(online[0]);
  expect(dimmed[1]).not.toBe(online[1]);
  // Gone, it has nothing to restart: only Dismiss.
  await expect
    .element(goneRow.getByRole('button', { name: 'Restart gone-box', exact: true }))
    .not.toBeInTheDocument();
  // A stopped agent stays too.
  bridge.emit('agents.changed', agents(lost, gone, agent('build-box', { state: 'stopped' })));
  await expect.element(row('build-box')).toHaveTextContent('Stopped');
  await expect.element(row('build-box')).toHaveTextContent('last seen');

  // Dismissed, it leaves with core's answer, before any event.
  await button('gone-box', 'Dismiss').click();
  expect(bridge.argsOf('agents.dismiss')).toEqual([PROFILE, gone.id]);
  await expect.element(row('gone-box')).not.toBeInTheDocument();
  await expect.element(row('lost-box')).toBeVisible();
});

it('shows Restarting… in the row in the same frame as the click, then the new session in the same row', async () => {
  open();
  const box = agent('build-box');
  // The call never answers: what the row shows cannot come from core.
  const bridge = showing(agents(box), { 'sessions.run': () => new Promise(() => undefined) });
  await expect.element(row('build-box')).toHaveTextContent('Online');
  const tr = row('build-box').element();
  const restart = button('build-box', 'Restart').element();

  (restart as HTMLButtonElement).click();
  flushSync();
  expect(tr.textContent).toContain('Restarting…');
  for (const inline of tr.querySelectorAll('.inline button'))
    expect(inline.getAttribute('aria-disabled')).toBe('true');
  expect(bridge.argsOf('sessions.run')).toEqual([
    { profileId: PROFILE, sessionId: box.session.id, action: 'restart' },
  ]);

  // Core takes over: its own "restarting", then the agent back with a new session.
  bridge.emit('agents.changed', agents({ ...box, state: 'restarting', since: Date.now() }));
  await expect.element(row('build-box')).toHaveTextContent('Restarting…');
  const next = someSession({ ...box.session, id: 'ts_next' });
  bridge.emit(
    'agents.changed',
    agents({ ...box, session: next, since: Date.now(), note: 'restarted · new session ts_next' }),
  );
  await expect.element(row('build-box')).toHaveTextContent('restarted · new session ts_next');
  expect(row('build-box').element()).toBe(tr);
  await expect.element(button('build-box', 'Restart')).not.toHaveAttribute('aria-disabled');
});

it('asks before stopping, naming the agent, and shows Stopping… once confirmed', async () => {
  open();
  const box = agent('build-box');
  const bridge = showing(agents(box), { 'sessions.run': () => new Promise(() => undefined) });
  const stop = button('build-box', 'Stop');
  await stop.click();
  await page
    .getByRole('dialog', { name: 'Stop build-box?' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  expect(bridge.argsOf('sessions.run')).toBeUndefined();
  await expect.element(row('build-box')).toHaveTextContent('Online');

  await stop.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop agent' }).click();
  await expect.element(row('build-box')).toHaveTextContent('Stopping…');
  expect(bridge.argsOf('sessions.run')).toEqual([
    { profileId: PROFILE, sessionId: box.session.id, action: 'stop' },
  ]);
});

it('gives the row back when the call fails, with the error as a toast', async () => {
  open();
  showing(agents(agent('build-box')), {
    'sessions.run': { error: { code: 'ERR_NGROK_3200', message: 'Session not found' } },
  });
  await button('build-box', 'Restart').click();
  await expect.element(page.getByText('Session not found')).toBeVisible();
  await expect.element(row('build-box')).toHaveTextContent('Online');
});

it('keeps a blocked Update focusable, saying why on focus, and never sends it', async () => {
  open();
  const why = 'The agent has already updated; restart it to run the new version.';
  const bridge = showing(agents(agent('build-box', { updateBlocked: why })));
  const update = button('build-box', 'Update');
  await expect.element(update).toHaveAttribute('aria-disabled', 'true');
  await expect.element(update).toHaveAccessibleDescription(why);
  await expect
    .element(button('build-box', 'Update and restart'))
    .toHaveAttribute('aria-disabled', 'true');
  await expect.element(button('build-box', 'Restart')).not.toHaveAttribute('aria-disabled');

  // From the keyboard, where the reason shows on focus (a click leaves focus without it).
  await userEvent.keyboard('{Shift}');
  (update.element() as HTMLElement).focus();
  await expect.element(page.getByRole('tooltip').filter({ hasText: why })).toBeVisible();
  (update.element() as HTMLElement).click();
  expect(bridge.argsOf('sessions.run')).toBeUndefined();
});

it('keeps the session rules: no restart on Windows, said the same way', async () => {
  open();
  showing(
    agents(agent('win-box', { session: someSession({ metadata: 'win-box', os: 'windows' }) })),
  );
  const restart = button('win-box', 'Restart');
  await expect.element(restart).toHaveAttribute('aria-disabled', 'true');
  await expect
    .element(restart)
    .toHaveAccessibleDescription('Restart is not supported on Windows agents.');
  await expect.element(button('win-box', 'Update')).not.toHaveAttribute('aria-disabled');
});

it("walks through Update and restart's steps, counting the wait down, to the new version", async () => {
  open();
  const box = agent('build-box');
  const bridge = showing(
    agents({ ...box, state: 'updating', step: { name: 'updating', until: null } }),
  );
  await expect.element(row('build-box')).toHaveTextContent('Updating…');

  const until = Date.now() + 8_000;
  bridge.emit(
    'agents.changed',
    agents({ ...box, state: 'updating', step: { name: 'waiting', until } }),
  );
  await expect.element(row('build-box')).toHaveTextContent(/Waiting for the update · [78] s/);
  await expect.element(row('build-box')).toHaveTextContent(/Waiting for the update · [56] s/);

  bridge.emit(
    'agents.changed',
    agents({ ...box, state: 'restarting', step: { name: 'restarting', until: null } }),
  );
  await expect.element(row('build-box')).toHaveTextContent('Restarting…');

  bridge.emit('agents.changed', agents({ ...box, note: 'updated 3.1.2 → 3.3.0' }));
  await expect.element(row('build-box')).toHaveTextContent('updated 3.1.2 → 3.3.0');
});

it('says a waiting update whole in its row at 1280×800, and whole on hover where it is cut', async () => {
  open();
  const box = agent('build-box');
  showing(
    agents({
      ...box,
      state: 'updating',
      step: { name: 'waiting', until: Date.now() + 30_000 },
    }),
  );
  await expect.element(row('build-box')).toHaveTextContent(/Waiting for the update · \d+ s/);
  const label = row('build-box').element().querySelector<HTMLElement>('.status .label');
  if (!label) throw new Error('no status label');
  expect(label.scrollWidth).toBeLessThanOrEqual(label.clientWidth);
  expect(label.title).toMatch(/^Waiting for the update · \d+ s$/);
});

it('opens an agent at its address, or at a session it had, with its timeline', async () => {
  const box = agent('build-box', {
    history: {
      bands: [
        { state: 'online', from: Date.now() - 10 * HOUR, to: Date.now() - 2 * HOUR },
        { state: 'online', from: Date.now() - 2 * HOUR, to: null },
      ],
      marks: [{ kind: 'restarted', at: Date.now() - 2 * HOUR, detail: 'new session ts_later' }],
    },
  });
  open(`#/sessions?agent=${box.id}`);
  showing(agents(agent('other-box'), box));
  await expect.element(page.getByRole('heading', { name: 'build-box', level: 2 })).toBeVisible();
  await expect
    .element(
      page.getByRole('img', { name: /^Last 24 hours of build-box: online 10 h, 1 restart$/ }),
    )
    .toBeVisible();
  await expect.element(page.getByText(box.session.id)).toBeVisible();
  await expect.element(page.getByRole('row', { name: 'other-box' })).not.toBeInTheDocument();

  // An older session of the agent (a notification's) opens the same agent.
  open('#/sessions?session=ts_later');
  await expect.element(page.getByRole('heading', { name: 'build-box', level: 2 })).toBeVisible();
  await page.getByRole('link', { name: '← All agents' }).click();
  await expect.element(row('other-box')).toBeVisible();
});

it('fits an 800×600 window: one menu of actions per agent, names on one line', async () => {
  await page.viewport(800, 600);
  open();
  const long =
    'build-box-in-the-basement-rack-seven-of-the-old-office-behind-the-printer-by-the-door';
  showing(agents(agent(long), agent('web')));
  const name = row(long).getByRole('link', { name: long });
  await expect.element(name).toBeVisible();
  const link = name.element() as HTMLElement;
  // One line, cut with an ellipsis, the whole name on hover.
  expect(link.scrollWidth).toBeGreaterThan(link.clientWidth);
  expect(link.getBoundingClientRect().height).toBeLessThan(24);
  expect(getComputedStyle(link).textOverflow).toBe('ellipsis');
  await expect.element(name).toHaveAttribute('title', long);
  // And whole on keyboard focus, over what follows.
  const whole = link.nextElementSibling as HTMLElement;
  expect(getComputedStyle(whole).display).toBe('none');
  await userEvent.tab();
  while (document.activeElement !== link) await userEvent.tab();
  expect(getComputedStyle(whole).display).toBe('block');
  expect(whole.textContent).toBe(long);

  await expect
    .element(row(long).getByRole('button', { name: `Restart ${long}` }))
    .not.toBeInTheDocument();
  const menuButton = row(long).getByRole('button', { name: `Actions for ${long}` });
  const cell = (menuButton.element() as HTMLElement).closest('td') as HTMLElement;
  expect(cell.getBoundingClientRect().height).toBeLessThan(48);
  await menuButton.click();
  const menu = page.getByRole('menu', { name: `Actions for ${long}` });
  await expect.element(menu.getByRole('menuitem', { name: 'Restart', exact: true })).toHaveFocus();
  expect(menu.getByRole('menuitem').elements()).toHaveLength(4);

  await page.viewport(1280, 800);
  await expect.element(button('web', 'Restart')).toBeVisible();
  await expect
    .element(row('web').getByRole('button', { name: 'Actions for web' }))
    .not.toBeInTheDocument();
});

/** A tray item that runs `verb` on the agent of session ts_one. */
function onTsOne(verb: 'restart' | 'stop' | 'update', label: string): TrayClickable {
  return {
    type: 'item',
    id: `session:ts_one:${verb}`,
    label,
    enabled: true,
    action: { name: `session.${verb}`, by: 'core', profileId: PROFILE, sessionId: 'ts_one' },
  };
}

it('renders the tray model in the header and runs its items by id', async () => {
  const tray: TrayModel = {
    icon: { state: 'attention', variant: 'burrow-badge', tooltip: 'Burrow · 1 agent went offline' },
    title: '2',
    items: [
      {
        type: 'submenu',
        id: 'session:ts_one',
        label: 'box · linux · eu',
        enabled: true,
        items: [
          onTsOne('restart', 'Restart'),
          {
            ...onTsOne('update', 'Update (not on SSH sessions)'),
            enabled: false,
            tooltip: 'An SSH session can only be stopped',
          },
        ],
      },
    ],
  };
  const bridge = scriptedBridge({
    'tray.model': () => tray,
    'tray.run': () => ({ action: tray.items[0], result: null }) as never,
  });
  render(App, { bridge });
  const button = page.getByRole('button', { name: 'Tray: Burrow · 1 agent went offline' });
  await expect.element(button).toHaveTextContent('2');
  await button.click();
  await page.getByText('box · linux · eu').click();
  await expect
    .element(page.getByRole('button', { name: 'Update (not on SSH sessions)' }))
    .toBeDisabled();
  await page.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect.poll(() => bridge.argsOf('tray.run')).toEqual(['session:ts_one:restart']);
});

it("asks before a tray Stop with the model's words, and stops only on yes", async () => {
  const confirm = {
    title: 'Stop this agent?',
    message: 'The agent on 10.0.0.1 (linux) ends its session and exits.',
    confirmLabel: 'Stop agent',
    destructive: true,
  };
  const tray: TrayModel = {
    icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow · Acme' },
    title: '1',
    items: [{ ...onTsOne('stop', 'Stop'), confirm }],
  };
  const bridge = scriptedBridge({
    'tray.model': () => tray,
    'tray.run': () => ({ action: tray.items[0], result: null }) as never,
  });
  render(App, { bridge });
  const openTray = () => page.getByRole('button', { name: 'Tray: Burrow · Acme' }).click();
  await openTray();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop this agent?' });
  await expect.element(dialog).toHaveTextContent(confirm.message);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('tray.run')).toBeUndefined();

  await openTray();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop agent' }).click();
  await expect.poll(() => bridge.argsOf('tray.run')).toEqual(['session:ts_one:stop']);
});

it('says why a profile is not watched', async () => {
  open();
  const bridge = showing(agents(agent('build-box')));
  await expect.element(row('build-box')).toBeVisible();

  const reason =
    'The API key of "Acme" is not in the keychain any more: enter it again in Settings';
  bridge.emit('sessions.changed', {
    paused: false,
    profiles: [unavailableSnapshot(PROFILE, reason)],
  });
  await expect.element(page.getByRole('status').filter({ hasText: reason })).toBeVisible();
  await expect.element(page.getByRole('link', { name: 'Open Settings' })).toBeVisible();
  await expect.element(page.getByText('Looking for online agents…')).not.toBeInTheDocument();
});

it("draws an agent's day on its page, with times on hover (a picture for docs/)", async () => {
  const now = Date.now();
  const at = (hoursAgo: number) => now - hoursAgo * HOUR;
  const box = agent('build-box', {
    note: 'updated 3.1.2 → 3.3.0',
    session: someSession({ metadata: 'build-box', agent_version: '3.3.0', region: 'eu' }),
    history: {
      bands: [
        { state: 'online', from: at(24), to: at(15.5) },
        { state: 'offline', from: at(15.5), to: at(14.8) },
        { state: 'online', from: at(14.8), to: null },
      ],
      marks: [
        { kind: 'offline', at: at(15.5), detail: null },
        { kind: 'restarted', at: at(9), detail: 'new session ts_2Lx0' },
        { kind: 'restarted', at: at(4.2), detail: 'new session ts_2M9q' },
        { kind: 'updated', at: at(1), detail: '3.1.2 → 3.3.0' },
      ],
    },
  });
  open(`#/sessions?agent=${box.id}`);
  showing(agents(box));
  const image = page.getByRole('img', { name: /^Last 24 hours of build-box: / });
  await expect
    .element(image)
    .toHaveAccessibleName(
      'Last 24 hours of build-box: online 23 h 18 min, offline 42 min, 2 restarts, 1 update',
    );
  await page.getByRole('button', { name: /^Updated at / }).hover();
  await expect.element(page.getByTestId('timeline-readout')).toHaveTextContent(/3\.1\.2 → 3\.3\.0/);
  await page.screenshot({ path: '../../test-results/screenshots/agent-timeline-example.png' });
});

it('marks a muted agent in its row, and says what Mute does on its page', async () => {
  const box = agent('quiet-box');
  open();
  showing(agents(box, agent('loud-box')), {
    'settings.get': () => Settings.parse({ mutedAgents: [box.key] }),
  });
  await expect.element(row('quiet-box')).toHaveTextContent('Muted ·');
  await expect.element(row('loud-box')).not.toHaveTextContent('Muted');
  await userEvent.click(row('quiet-box').getByRole('link', { name: 'quiet-box' }));
  await expect
    .element(page.getByRole('button', { name: 'Unmute this agent' }))
    .toHaveAccessibleDescription(/sends no notifications about this agent/);
});

it('keeps the rows in their places while the pointer is over the list, and re-sorts after', async () => {
  open();
  const [a, b] = [agent('a-box'), agent('b-box')];
  const bridge = showing(agents(a, b));
  await expect.element(row('b-box')).toBeVisible();
  const names = () =>
    [...document.querySelectorAll('tr[data-agent]')].map((r) => r.getAttribute('aria-label'));
  expect(names()).toEqual(['a-box', 'b-box']);
  await row('a-box').hover();
  // b-box goes offline: core's order puts it first, but not under the pointer.
  bridge.emit('agents.changed', agents({ ...b, state: 'offline' }, a));
  await expect.element(row('b-box')).toHaveTextContent('Offline');
  expect(names()).toEqual(['a-box', 'b-box']);
  await userEvent.unhover(row('a-box'));
  await page.getByRole('heading', { level: 1 }).hover();
  await expect.poll(names).toEqual(['b-box', 'a-box']);
});
