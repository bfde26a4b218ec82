import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { agentKey } from '../../shared/app/monitor.ts';
import { sleep, systemClock, type Clock } from '../../shared/node/clock.ts';
import { AbortError } from '../api/errors.ts';
import type { FindSuccessor } from '../sessions/actions.ts';

type Waiter = {
  readonly key: string;
  readonly oldId: string;
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly resolve: (session: TunnelSession) => void;
  readonly reject: (error: Error) => void;
};

/**
 * Restarted agents' new sessions, looked for in one listing per profile however many agents
 * wait: a batch of five restarting together costs one call a round, not five, so the rolling
 * update stays within the account's rate budget.
 */
export class SuccessorWatch {
  private readonly waiting = new Map<string, Set<Waiter>>();

  constructor(
    private readonly list: (profileId: string, signal: AbortSignal) => Promise<TunnelSession[]>,
    private readonly everyMs = 500,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The finder for one profile's restarts, as core/sessions takes it. */
  finder(profileId: string): FindSuccessor {
    return (session, timeoutMs, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted === true) return reject(new AbortError('finding the restarted agent'));
        let waiters = this.waiting.get(profileId);
        const start = !waiters;
        if (!waiters) this.waiting.set(profileId, (waiters = new Set()));
        const waiter: Waiter = {
          key: agentKey(session),
          oldId: session.id,
          deadline: this.clock.now() + timeoutMs,
          timeoutMs,
          resolve: (found) => done(() => resolve(found)),
          reject: (error) => done(() => reject(error)),
        };
        const set = waiters;
        const abort = () => waiter.reject(new AbortError('finding the restarted agent'));
        const done = (settle: () => void) => {
          set.delete(waiter);
          signal?.removeEventListener('abort', abort);
          settle();
        };
        signal?.addEventListener('abort', abort, { once: true });
        set.add(waiter);
        if (start) void this.poll(profileId, set);
      });
  }

  private async poll(profileId: string, waiters: Set<Waiter>): Promise<void> {
    const controller = new AbortController();
    try {
      while (waiters.size > 0) {
        await sleep(this.clock, this.everyMs, undefined, () => new AbortError('polling'));
        if (waiters.size === 0) break;
        let listed: TunnelSession[];
        try {
          listed = await this.list(profileId, controller.signal);
        } catch (error) {
          for (const waiter of [...waiters]) waiter.reject(error as Error);
          break;
        }
        const now = this.clock.now();
        for (const waiter of [...waiters]) {
          const found = listed.find((s) => s.id !== waiter.oldId && agentKey(s) === waiter.key);
          if (found) waiter.resolve(found);
          else if (now >= waiter.deadline)
            waiter.reject(
              new Error(
                `The agent did not come back within ${Math.round(waiter.timeoutMs / 1000)} s of its restart`,
              ),
            );
        }
      }
    } finally {
      if (this.waiting.get(profileId) === waiters) this.waiting.delete(profileId);
    }
  }
}
