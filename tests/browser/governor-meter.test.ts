import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import type { GovernorState } from '../../shared/app/ipc/contract.ts';
import { budget, scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

/*
 * The header's rate budget: a quiet control that always names the budget, its count in sight
 * only when it matters (under a quarter left, calls waiting) or when pointed at or tabbed to.
 */

const PROFILE = SOME_PROFILES.activeId ?? '';
const meter = (left: number) =>
  page.getByRole('button', { name: `Rate limit: ${left} of 120 requests left`, exact: true });
const count = (left: number) => page.getByText(`${left} of 120 requests left`, { exact: true });

function withBudget(state: GovernorState) {
  const bridge = scriptedBridge({ 'governor.state': () => state });
  render(App, { bridge });
  return bridge;
}

it('names the budget, and shows its count only when pointed at or tabbed to while plenty is left', async () => {
  withBudget(budget(PROFILE, 6));
  await expect.element(meter(114)).toBeVisible();
  await expect.element(count(114)).not.toBeVisible();

  await userEvent.hover(meter(114));
  await expect.element(count(114)).toBeVisible();
  await userEvent.hover(page.getByText('Burrow', { exact: true }));
  await expect.element(count(114)).not.toBeVisible();

  // Tab from the top of the window until the meter has focus: the keyboard's way of pointing.
  (document.activeElement as HTMLElement | null)?.blur();
  for (let i = 0; i < 8 && document.activeElement !== meter(114).element(); i++)
    await userEvent.tab();
  await expect.element(meter(114)).toHaveFocus();
  await expect.element(count(114)).toBeVisible();
});

it('shows the count, in the warning colour, once under a quarter is left', async () => {
  const bridge = withBudget(budget(PROFILE, 90));
  // A quarter left exactly is not yet under it.
  await expect.element(meter(30)).toBeVisible();
  await expect.element(count(30)).not.toBeVisible();

  bridge.emit('governor.changed', budget(PROFILE, 91));
  await expect.element(count(29)).toBeVisible();
  const warn = document.body.appendChild(document.createElement('span'));
  warn.style.color = 'var(--warn)';
  expect(getComputedStyle(count(29).element()).color).toBe(getComputedStyle(warn).color);
  warn.remove();
});

it('shows the count while calls wait their turn, however much is left', async () => {
  const bridge = withBudget(budget(PROFILE, 6));
  await expect.element(count(114)).not.toBeVisible();
  bridge.emit('governor.changed', {
    ...budget(PROFILE, 6),
    queued: { interactive: 0, background: 2 },
  });
  await expect.element(count(114)).toBeVisible();
});

it('says a rate-limit wait in words, announced, the count giving way to it and the budget still named', async () => {
  const bridge = withBudget(budget(PROFILE, 120));
  await expect.element(count(0)).toBeVisible();
  bridge.emit('api.activity', {
    profileId: PROFILE,
    kind: 'rate-limited',
    operation: 'ipPolicies.list',
    retryInMs: 12_000,
    message: 'Rate limited, retrying in 12 s',
  });
  await expect
    .element(page.getByRole('status').filter({ hasText: /Rate limited, retrying in 1[12] s/ }))
    .toBeVisible();
  await expect.element(meter(0)).toBeVisible();
  // Nothing left: the wait says so, in less room than the two would take.
  await expect.element(count(0)).not.toBeVisible();
  await userEvent.hover(meter(0));
  await expect.element(count(0)).not.toBeVisible();
});

it('tells what the budget is on a click, and Escape puts it away', async () => {
  withBudget({ ...budget(PROFILE, 6), queued: { interactive: 1, background: 2 } });
  await userEvent.click(meter(114));
  const detail = page.getByText('key may make 120 requests in any 60 s: 114 are left now');
  await expect.element(detail).toBeVisible();
  await expect.element(page.getByText('3 calls are waiting their turn.')).toBeVisible();
  await userEvent.keyboard('{Escape}');
  await expect.element(detail).not.toBeVisible();
});
