import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import { KINDS } from '../../renderer/src/resources/kinds/kind-list.ts';
import type { IpcCallName } from '../../shared/app/ipc/contract.ts';
import { SEARCH_HREF } from '../../shared/app/tray.ts';
import { agentsOf, restartOne, someAgent, watched } from './support/agents.ts';
import { freshWindow, record } from './support/records.ts';
import { scriptedBridge, SOME_PROFILES, type ScriptedAnswers } from './support/scripted-bridge.ts';

/*
 * The command palette in the window, core scripted: Ctrl+K from anywhere, a resource found by
 * name and opened, an agent's actions run by keyboard through the Sessions screen's own calls
 * (Stop asking first), recent items first, focus back where it was, the screens' keys.
 */

const PROFILE = SOME_PROFILES.activeId ?? '';
const OFFICE = record('ipp_office1', 'ip_policies', { description: 'office network' });

/** Every listed kind answers an empty list but IP policies; `answers` on top. */
function showing(answers: ScriptedAnswers = {}) {
  const lists = Object.fromEntries(
    KINDS.filter((k) => k.listed).map((k) => [`api.${k.group}.listAll`, () => []]),
  );
  const bridge = scriptedBridge({
    ...lists,
    'api.ipPolicies.listAll': () => [OFFICE],
    'api.ipPolicies.get': () => OFFICE,
    'sessions.snapshot': () => watched(PROFILE),
    'agents.snapshot': () => agentsOf({ [PROFILE]: [someAgent(PROFILE, 'build-box')] }),
    'sessions.run': () => ({ ok: true }),
    ...answers,
  });
  render(App, { bridge });
  return bridge;
}

const combobox = () => page.getByRole('combobox', { name: /^Search/ });
const option = (name: string | RegExp) => page.getByRole('option', { name });
const callsOf = (bridge: ReturnType<typeof showing>, name: IpcCallName) =>
  bridge.calls.filter((c) => c.name === name);

async function openPalette() {
  await userEvent.keyboard('{Control>}k{/Control}');
  await expect.element(combobox()).toHaveFocus();
}

beforeEach(() => freshWindow());

it('finds an IP policy by name with Ctrl+K, says how many match, and opens it by keyboard', async () => {
  const bridge = showing();
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await openPalette();
  await userEvent.keyboard('offnet');
  await expect.element(option(/^office network/)).toHaveAttribute('aria-selected', 'true');
  // The name is the label; the id is there, muted, to match and to tell two apart.
  await expect.element(option(/^office network/)).toHaveTextContent('ipp_office1');
  await expect
    .element(page.getByRole('status').filter({ hasText: 'result' }))
    .toHaveTextContent(/^1 result/);
  const active = combobox().element().getAttribute('aria-activedescendant') ?? '';
  expect(document.getElementById(active)?.textContent).toMatch(/^office network/);
  // Read once on opening, not on every key.
  expect(callsOf(bridge, 'api.ipPolicies.listAll')).toHaveLength(1);

  await userEvent.keyboard('{Enter}');
  await expect
    .element(page.getByRole('dialog', { name: 'Command palette' }))
    .not.toBeInTheDocument();
  expect(window.location.hash).toBe('#/ip-policies/ipPolicies/ipp_office1');
  await expect.element(page.getByRole('heading', { name: 'office network' })).toBeVisible();
});

it('restarts an agent by keyboard alone through the agents’ own call', async () => {
  const bridge = showing();
  await expect.element(page.getByRole('row', { name: 'build-box', exact: true })).toBeVisible();
  await openPalette();
  await userEvent.keyboard('restart build');
  await expect.element(option(/^Restart build-box/)).toHaveAttribute('aria-selected', 'true');
  await userEvent.keyboard('{Enter}');
  await expect
    .poll(() => bridge.argsOf('sessions.run'))
    .toEqual([expect.objectContaining({ profileId: PROFILE, action: 'restart' })]);
});

it('asks before a stop, as the row does; Cancel sends nothing and focus goes back', async () => {
  const bridge = showing();
  const edges = page.getByRole('link', { name: 'Edges', exact: true });
  await expect.element(edges).toBeVisible();
  (edges.element() as HTMLElement).focus();
  await openPalette();
  await userEvent.keyboard('stop build-box');
  await userEvent.keyboard('{Enter}');
  const question = page.getByRole('dialog', { name: 'Stop build-box?' });
  await expect.element(question).toBeVisible();
  await userEvent.keyboard('{Escape}');
  await expect.element(question).not.toBeInTheDocument();
  await expect.element(edges).toHaveFocus();
  expect(bridge.argsOf('sessions.run')).toBeUndefined();
});

it('closes on Escape with focus back on what had it, and puts what was chosen first next time', async () => {
  showing();
  const edges = page.getByRole('link', { name: 'Edges', exact: true });
  await expect.element(edges).toBeVisible();
  (edges.element() as HTMLElement).focus();
  await openPalette();
  await userEvent.keyboard('{Escape}');
  await expect.element(edges).toHaveFocus();

  await openPalette();
  await userEvent.keyboard('snap{Enter}');
  await expect.element(page.getByRole('heading', { name: 'Snapshots', level: 1 })).toBeVisible();
  await openPalette();
  const results = page.getByRole('listbox', { name: 'Results' });
  await expect.element(results.getByRole('option').first()).toHaveTextContent(/^Snapshots/);
});

it('goes to a screen with g and its letter, never while typing in a field; ? lists the keys', async () => {
  showing();
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await userEvent.keyboard('ge');
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();

  await openPalette();
  await userEvent.keyboard('gi');
  await expect.element(combobox()).toHaveValue('gi');
  expect(window.location.hash).toBe('#/edges');
  await userEvent.keyboard('{Escape}');

  await userEvent.keyboard('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect.element(help).toHaveTextContent(/g i\s*Go to IP policies/);
  await userEvent.keyboard('{Escape}');
  await expect.element(help).not.toBeInTheDocument();
});

it('opens from the tray’s Search… over the screen shown, whose address stays', async () => {
  showing();
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  window.location.hash = '#/edges';
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();
  window.location.hash = SEARCH_HREF;
  await expect.element(combobox()).toHaveFocus();
  expect(window.location.hash).toBe('#/edges');
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();
});

it('opens at once in a window the tray’s Search… opened, on the home screen', async () => {
  window.location.hash = SEARCH_HREF;
  showing();
  await expect.element(combobox()).toHaveFocus();
  expect(window.location.hash).toBe('#/sessions');
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
});

it('runs an action on the whole fleet after the fleet’s own question, then shows Sessions', async () => {
  const agent = someAgent(PROFILE, 'build-box');
  const ref = { profileId: PROFILE, agentId: agent.id };
  const bridge = showing({
    'fleet.impact': () => restartOne(ref),
    'fleet.run': () => ({ action: 'restart', results: [], leftOut: [], summary: '1 restarted' }),
  });
  window.location.hash = '#/edges';
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();
  await openPalette();
  await userEvent.keyboard('restart all{Enter}');
  const question = page.getByRole('dialog', { name: 'Restart: 1 agent' });
  await expect.element(question).toHaveTextContent('Restart 1 agent on 1 profile.');
  expect(bridge.argsOf('fleet.run')).toBeUndefined();
  await question.getByRole('button', { name: 'Restart 1 agent' }).click();
  await expect
    .poll(() => bridge.argsOf('fleet.run'))
    .toEqual([{ action: 'restart', agents: [ref] }]);
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
});

it('shows an id in the monospace face the window’s code uses', async () => {
  showing();
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await openPalette();
  await userEvent.keyboard('offnet');
  await expect.element(option(/^office network/)).toBeVisible();
  const id = option(/^office network/)
    .element()
    .querySelector('.id');
  const code = document.body.appendChild(document.createElement('code'));
  expect(id && getComputedStyle(id).fontFamily).toBe(getComputedStyle(code).fontFamily);
  code.remove();
});
