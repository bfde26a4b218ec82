import { expect, it } from 'vitest';
import type { GovernorState } from '../../../shared/app/ipc/contract.ts';
import type { TrayModel } from '../../../shared/app/tray.ts';
import { followState } from '../../../renderer/src/lib/follow-state.ts';
import { budget, scriptedBridge } from '../../browser/support/scripted-bridge.ts';

const tray = (title: string): TrayModel => ({
  icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow' },
  title,
  items: [],
});

/** A call's answer held back until the test lets it go. */
function held<T>(value: T): { answer: () => Promise<T>; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { answer: () => gate.then(() => value), release };
}

it('asks the call the contract pairs with the event, then follows the event', async () => {
  const bridge = scriptedBridge({ 'tray.model': () => tray('asked') });
  const seen: string[] = [];
  const followed = followState(bridge, 'tray.changed', (model) => void seen.push(model.title));
  await followed.ask();
  bridge.emit('tray.changed', tray('told'));
  followed.stop();
  bridge.emit('tray.changed', tray('after stop'));
  expect(bridge.calls.map((c) => c.name)).toEqual(['tray.model']);
  expect(seen).toEqual(['asked', 'told']);
});

it('keeps an event that came while it asked: the answer is older', async () => {
  const slow = held(tray('asked'));
  const bridge = scriptedBridge({ 'tray.model': slow.answer });
  const seen: string[] = [];
  const followed = followState(bridge, 'tray.changed', (model) => void seen.push(model.title));
  const asking = followed.ask();
  bridge.emit('tray.changed', tray('told'));
  slow.release();
  await asking;
  expect(seen).toEqual(['told']);
});

it('hands over no state when the call answers there is none yet', async () => {
  const bridge = scriptedBridge({ 'governor.state': () => null });
  const seen: GovernorState[] = [];
  await followState(bridge, 'governor.changed', (state) => void seen.push(state)).ask();
  expect(seen).toEqual([]);
});

it('takes the answer when the events meanwhile were ones the store does not keep', async () => {
  const slow = held(budget('prf_mine', 2));
  const bridge = scriptedBridge({ 'governor.state': slow.answer });
  const seen: string[] = [];
  const followed = followState(bridge, 'governor.changed', (state) => {
    const mine = state.profileId === 'prf_mine';
    if (mine) seen.push(`${state.profileId} ${state.used}`);
    return mine;
  });
  const asking = followed.ask();
  bridge.emit('governor.changed', budget('prf_other', 50));
  slow.release();
  await asking;
  expect(seen).toEqual(['prf_mine 2']);
});

it('fails as the call fails', async () => {
  const bridge = scriptedBridge({ 'settings.get': { error: { code: 'X', message: 'no' } } });
  await expect(followState(bridge, 'settings.changed', () => {}).ask()).rejects.toThrow('no');
});
