/** The session monitor's options and face; `createSessionMonitor` (monitor.ts) makes one. */
import type { MonitorEvent, MonitorSnapshot } from '../../shared/app/monitor.ts';
import type { ApiClient, ApiEvent } from '../api/client.ts';
import type { Clock } from '../../shared/node/clock.ts';
import type { Expectation } from './reconcile.ts';

/**
 * Makes the client a profile is polled with. `onEvent` must reach the client's own `onEvent`:
 * that is how the monitor hears of 429s. Give clients of one API key the same governor, so that
 * the monitor can keep their polls together within one budget.
 */
export type MonitorClientFactory = (
  profileId: string,
  onEvent: (event: ApiEvent) => void,
) => ApiClient;

export type SessionMonitorOptions = {
  readonly clientFor: MonitorClientFactory;
  /** Timers and the monotonic time of expectations; tests pass one that moves when told. */
  readonly clock?: Clock;
  /** Wall-clock time of events (epoch ms). */
  readonly now?: () => number;
  /** The wait between polls when the budget allows it; default 5 s. */
  readonly intervalMs?: number;
  /** The wait after a poll that first missed a session, when the budget allows it; default 2 s. */
  readonly confirmDelayMs?: number;
  /** The share of each rate budget polling may use; default a quarter. */
  readonly budgetShare?: number;
  /** A poll still running after this long (say, behind 429s) is given up; default 120 s. */
  readonly pollTimeoutMs?: number;
  /** How long a stop or restart of ours explains a session's absence; default 60 s. */
  readonly expectationMs?: number;
  /**
   * After the API was unreachable, how long agents have to reconnect (their backoff may have
   * grown during the outage) before a session still missing is offline; default 30 s.
   */
  readonly reconnectGraceMs?: number;
};

export type ExpectedCommand = Expectation['command'];

export interface SessionMonitor {
  /** Monitors exactly these profiles: new ones start quietly, dropped ones stop at once. */
  setProfiles(profileIds: readonly string[]): void;
  /** Polls now (after a poll in progress), all profiles or one; resolves when it has ended. */
  pollNow(profileId?: string): Promise<void>;
  /** The person changed the poll interval: the next waits use it (still stretched by budget). */
  setIntervalMs(ms: number): void;
  /** System suspend: no polls until resume(), which starts quietly again. */
  pause(): void;
  resume(): void;
  /** A stop or restart of ours was accepted: report `stopped`, or hold `offline` for the restart. */
  expect(profileId: string, sessionId: string, command: ExpectedCommand): void;
  snapshot(): MonitorSnapshot;
  onEvent(listener: (event: MonitorEvent) => void): () => void;
  /** Called whenever the snapshot may have changed: after each poll, on pause and resume. */
  onSnapshot(listener: (snapshot: MonitorSnapshot) => void): () => void;
  close(): Promise<void>;
}
