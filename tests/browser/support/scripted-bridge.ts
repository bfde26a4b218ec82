import { BridgeCallError, createEventFanout, type Bridge } from '../../../shared/app/ipc/bridge.ts';
import type {
  GovernorState,
  IpcCallName,
  IpcEvent,
  IpcEventName,
  IpcError,
  IpcEventPayload,
  IpcResult,
} from '../../../shared/app/ipc/contract.ts';
import { Settings } from '../../../shared/app/ipc/settings.ts';
import { profilesState } from '../../support/profiles.ts';

/*
 * A Bridge scripted by the test, for component tests of the renderer alone. The real ones
 * (Electron's preload, browser mode's HTTP bridge) carry the same calls to core/, which the
 * integration suites drive for real against the sandbox.
 */

type Answer = (...args: never[]) => unknown;
export type ScriptedBridge = Bridge & {
  emit<E extends IpcEventName>(name: E, payload: IpcEventPayload<E>): void;
  calls: { name: string; args: unknown[] }[];
  /** The arguments of the first call of `name`; undefined while there was none. */
  argsOf(name: IpcCallName): unknown[] | undefined;
};

export const SOME_PROFILES = profilesState(
  [
    { id: 'prf_local0001', name: 'Local sandbox', baseUrl: 'http://127.0.0.1:4040', kind: 'local' },
    { id: 'prf_work00001', name: 'Work', baseUrl: 'https://api.example.com', kind: 'remote' },
  ],
  { state: 'running' },
);

/** The rolling window of a profile's key with `used` of its 120 requests taken. */
export function budget(profileId: string, used: number): GovernorState {
  return {
    profileId,
    capacity: 120,
    windowMs: 60_000,
    used,
    remaining: 120 - used,
    queued: { interactive: 0, background: 0 },
    coolingDownUntil: null,
  };
}

/** A test's answers per call: a function, or the error the call fails with. */
export type ScriptedAnswers = Partial<Record<IpcCallName, Answer | { error: IpcError }>>;

export function scriptedBridge(answers: ScriptedAnswers = {}): ScriptedBridge {
  const events = createEventFanout();
  const defaults: Partial<Record<IpcCallName, Answer>> = {
    'app.info': () => ({ name: 'Burrow', version: '1.2.3', shell: 'browser' }),
    'profiles.state': () => SOME_PROFILES,
    'settings.get': () => Settings.parse({}),
    'snapshots.stopped': () => [],
    'api.tunnelSessions.listAll': () => [],
    'sessions.snapshot': () => ({ paused: false, profiles: [] }),
    'sessions.seen': () => null,
    'agents.snapshot': () => ({ profiles: [] }),
    'rollout.state': () => null,
    'drift.state': () => [],
    'updates.state': () => ({
      phase: 'unavailable',
      current: '1.2.3',
      offered: null,
      message: 'Browser mode has no updater: updates come with the installed desktop app',
      lastCheck: null,
      nextCheckAt: null,
    }),
    'tray.model': () => ({
      icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow' },
      title: '',
      items: [],
    }),
  };
  const calls: { name: string; args: unknown[] }[] = [];
  return {
    calls,
    argsOf: (name) => calls.find((c) => c.name === name)?.args,
    async invoke<N extends IpcCallName>(name: N, ...args: unknown[]): Promise<IpcResult<N>> {
      calls.push({ name, args });
      const answer = answers[name] ?? defaults[name];
      if (answer === undefined) throw new BridgeCallError({ code: 'UNSCRIPTED', message: name });
      if (typeof answer !== 'function') throw new BridgeCallError(answer.error);
      return (await (answer as (...a: unknown[]) => unknown)(...args)) as IpcResult<N>;
    },
    on: events.on,
    emit(name, payload) {
      events.deliver({ name, payload } as IpcEvent);
    },
  };
}

/** An answer that refuses with `error` while `refusing()` holds, and gives `answer()` after. */
export function refusingWhile(
  refusing: () => boolean,
  error: IpcError,
  answer: () => unknown,
): Answer {
  return () => {
    if (refusing()) throw new BridgeCallError(error);
    return answer();
  };
}
