import { z } from 'zod';
import { expect, it } from 'vitest';
import { appCalls, ipcEvents } from '../../../../../shared/app/ipc/contract.ts';
import { STATE_EVENTS } from '../../../../../shared/app/ipc/state-events.ts';

type CallName = keyof typeof appCalls;
type EventName = keyof typeof ipcEvents;

/** Whether the call, asked with no arguments, answers the state the event carries (null: none yet). */
function answers(call: CallName, event: EventName): boolean {
  const { args, result } = appCalls[call];
  const answered = result instanceof z.ZodNullable ? result.unwrap() : result;
  return args.safeParse([]).success && answered === ipcEvents[event];
}

it('pairs every event that carries a whole state with a call that answers it', () => {
  // An event left out is never asked again after a tab's event stream was down.
  const calls = Object.keys(appCalls) as CallName[];
  const whole = (Object.keys(ipcEvents) as EventName[]).filter((event) =>
    calls.some((call) => answers(call, event)),
  );
  expect(Object.keys(STATE_EVENTS).sort()).toEqual(whole.sort());
  for (const [event, call] of Object.entries(STATE_EVENTS))
    expect(answers(call, event as EventName), `${event} ← ${call}`).toBe(true);
});
