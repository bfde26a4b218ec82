import { render } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import ToastsView from '../../renderer/src/components/Toasts.svelte';
import { NotificationsState } from '../../renderer/src/stores/notifications.svelte.ts';
import { SessionsState } from '../../renderer/src/stores/sessions.svelte.ts';
import { Toasts } from '../../renderer/src/stores/toasts.svelte.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

const problem = { code: 'ERR_SERVICE_5001', message: 'Refused', operationId: 'op_toast1' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

it('keeps every toast while one is pointed at or focused, then resumes each one’s time left', () => {
  const toasts = new Toasts();
  toasts.error(problem);
  vi.advanceTimersByTime(10_000);
  toasts.show('success', 'Saved');
  toasts.hold('pointer');
  toasts.hold('focus');
  vi.advanceTimersByTime(60_000);
  expect(toasts.items).toHaveLength(2);
  toasts.release('pointer');
  vi.advanceTimersByTime(60_000);
  expect(toasts.items).toHaveLength(2);

  toasts.release('focus');
  vi.advanceTimersByTime(2_100);
  expect(toasts.items.map((t) => t.message)).toEqual(['Saved']);
  vi.advanceTimersByTime(2_000);
  expect(toasts.items).toEqual([]);
});

it('keeps the three newest, and a dismissed one’s timer never fires on another', () => {
  const toasts = new Toasts();
  for (let i = 1; i <= 5; i++) toasts.show('info', `note ${i}`);
  expect(toasts.items.map((t) => t.message)).toEqual(['note 3', 'note 4', 'note 5']);
  toasts.dismiss(toasts.items[0]?.id ?? 0);
  vi.advanceTimersByTime(4_999);
  expect(toasts.items).toHaveLength(2);
  vi.advanceTimersByTime(1);
  expect(toasts.items).toEqual([]);
});

it('shows only the newest success, beside the errors and notices', () => {
  const toasts = new Toasts();
  toasts.error(problem);
  toasts.show('success', 'Added the allow rule 10.0.0.0/8');
  toasts.show('info', 'Checking');
  toasts.show('success', 'Added the deny rule 10.9.0.0/16');
  toasts.show('success', 'Added the allow rule 2001:db8::/64');
  expect(toasts.items.map((t) => t.message)).toEqual([
    'Refused',
    'Checking',
    'Added the allow rule 2001:db8::/64',
  ]);
  // The success it replaced leaves no timer behind to end the newest early.
  vi.advanceTimersByTime(3_999);
  expect(toasts.items).toHaveLength(3);
});

it('holds its toasts while the pointer is over them', async () => {
  vi.useRealTimers();
  const toasts = new Toasts();
  const hold = vi.spyOn(toasts, 'hold');
  const release = vi.spyOn(toasts, 'release');
  render(ToastsView, { toasts });
  toasts.error(problem);
  const toast = page.getByRole('alert');
  await expect.element(toast).toBeVisible();
  await userEvent.hover(toast);
  expect(hold).toHaveBeenCalledWith('pointer');
  await userEvent.unhover(toast);
  expect(release).toHaveBeenCalledWith('pointer');
});

/** One error toast on real timers, with a spy on the toasts' release (a holder letting go). */
function showProblemWatchingRelease() {
  vi.useRealTimers();
  const toasts = new Toasts();
  const release = vi.spyOn(toasts, 'release');
  render(ToastsView, { toasts });
  toasts.error(problem);
  return { release, dismiss: page.getByRole('button', { name: 'Dismiss' }) };
}

it('lets go when the toast it was holding is dismissed from the keyboard', async () => {
  const { release, dismiss } = showProblemWatchingRelease();
  await expect.element(dismiss).toBeVisible();
  (dismiss.element() as HTMLButtonElement).focus();
  await userEvent.keyboard('{Enter}');
  await expect.element(dismiss).not.toBeInTheDocument();
  await expect.poll(() => release.mock.calls.some(([by]) => by === 'focus')).toBe(true);
});

it('lets go when the last toast under the pointer is dismissed by a click', async () => {
  const { release, dismiss } = showProblemWatchingRelease();
  await dismiss.click();
  await expect.element(dismiss).not.toBeInTheDocument();
  await expect.poll(() => release.mock.calls.some(([by]) => by === 'pointer')).toBe(true);
});

it('toasts one action’s outcome, not each of a bulk action’s or a rolling update’s agents', () => {
  const toasts = new Toasts();
  const bridge = scriptedBridge();
  const stop = new SessionsState(bridge, toasts).start();
  const subject = { action: 'restart', profileId: 'prf_a', sessionId: 'ts_1' } as const;
  const failed = {
    ...subject,
    ok: false,
    step: 'restart',
    reason: 'The agent did not answer in time.',
    errorCode: 'ERR_SERVICE_334',
    operationId: 'op_1',
  } as const;
  const done = { phase: 'done', ...subject, agent: 'build-box' } as const;
  bridge.emit('sessions.action', { ...done, result: failed, grouped: true });
  expect(toasts.items).toEqual([]);
  bridge.emit('sessions.action', { ...done, result: failed });
  expect(toasts.items.map((t) => t.message)).toEqual(['The agent did not answer in time.']);
  stop();
});

it('names the agent an action was sent to: the palette, the tray or a terminal is not its row', () => {
  const toasts = new Toasts();
  const bridge = scriptedBridge();
  const stop = new SessionsState(bridge, toasts).start();
  const sent = (action: 'restart' | 'stop' | 'update') => {
    const subject = { action, profileId: 'prf_a', sessionId: 'ts_1' } as const;
    const result = { ...subject, ok: true } as const;
    bridge.emit('sessions.action', { phase: 'done', ...subject, agent: 'build-box', result });
  };
  const said = (action: 'restart' | 'stop' | 'update') => {
    sent(action);
    return toasts.items.map((t) => t.message);
  };
  expect(said('restart')).toEqual(['Restart sent to build-box']);
  expect(said('stop')).toEqual(['Stopped build-box']);
  expect(said('update')).toEqual(['Update sent to build-box']);
  stop();
});

it('shows an API back as good news and an agent gone as a problem, not both as errors', () => {
  const toasts = new Toasts();
  const bridge = scriptedBridge();
  const stop = new NotificationsState(bridge, toasts).start();
  const notice = (tone: 'problem' | 'good', title: string) => ({
    id: title,
    kind: tone === 'good' ? ('apiHealth' as const) : ('offline' as const),
    tone,
    title,
    body: 'at 10:00',
    target: { type: 'profile' as const, profileId: 'prf_a' },
    actions: [],
  });
  bridge.emit('notification', notice('good', 'Acme: API reachable again'));
  bridge.emit('notification', notice('problem', 'Acme: web went offline'));
  expect(toasts.items.map((t) => t.tone)).toEqual(['success', 'error']);
  stop();
});

it('keeps quiet hours’ summary until it is dismissed, whatever comes after it', () => {
  const toasts = new Toasts();
  const bridge = scriptedBridge();
  const stop = new NotificationsState(bridge, toasts).start();
  bridge.emit('notification', {
    id: 'quietSummary:prf_a:1',
    kind: 'quietSummary',
    title: '3 notices during quiet hours',
    body: 'web went offline; db went offline; web is back online.',
    target: { type: 'sessions', profileId: 'prf_a' },
    actions: ['open'],
  });
  for (let i = 1; i <= 5; i++) toasts.show('info', `note ${i}`);
  vi.advanceTimersByTime(3_600_000);
  expect(toasts.items.map((t) => t.message)).toEqual([
    '3 notices during quiet hours: web went offline; db went offline; web is back online.',
  ]);
  toasts.dismiss(toasts.items[0]?.id ?? 0);
  expect(toasts.items).toEqual([]);
  stop();
});
