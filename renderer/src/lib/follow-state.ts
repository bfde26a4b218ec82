import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { IpcEventPayload } from '../../../shared/app/ipc/contract.ts';
import { STATE_EVENTS, type StateEventName } from '../../../shared/app/ipc/state-events.ts';

/** A store's hold on one whole state. */
export type FollowedState<E extends StateEventName = StateEventName> = {
  /** Stops listening to the event. */
  readonly stop: () => void;
  /**
   * Asks for the state now and hands it over, unless an event `take` kept came meanwhile (it is
   * newer than the answer) or there is none yet (null). Fails as the call fails.
   */
  readonly ask: () => Promise<void>;
  /**
   * Makes a call that answers the state too (a rolling update's start, its pause) and hands its
   * answer over on the same terms as `ask`: an event that came while the answer was on its way
   * is newer (over HTTP, events and answers travel apart), so the answer does not undo it.
   * Fails as the call fails.
   */
  readonly call: (make: () => Promise<IpcEventPayload<E> | null>) => Promise<void>;
};

/**
 * "This store follows this event": every event that carries the state hands it to `take`, and
 * so does `ask`, with what the call the contract pairs with the event answers now. A store names
 * only the event; which call answers it is the contract's to know (STATE_EVENTS). `take` answers
 * false for a state it does not keep (another profile's), which leaves an answer on its way valid.
 */
export function followState<E extends StateEventName>(
  bridge: Bridge,
  event: E,
  take: (state: IpcEventPayload<E>) => boolean | void,
): FollowedState<E> {
  let heard = 0;
  const stop = bridge.on(event, (state) => {
    if (take(state) !== false) heard += 1;
  });
  const asking = STATE_EVENTS[event] as (typeof STATE_EVENTS)[StateEventName];
  const call = async (make: () => Promise<IpcEventPayload<E> | null>) => {
    const before = heard;
    const state = await make();
    if (state !== null && heard === before) take(state);
  };
  return {
    stop,
    call,
    // The contract pairs each event with a call that answers its payload, or null.
    ask: () => call(() => bridge.invoke(asking) as Promise<IpcEventPayload<E> | null>),
  };
}
