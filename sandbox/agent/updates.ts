import type { AgentCommandError } from '../tunnel/protocol.ts';
import { updateTarget } from '../tunnel/releases.ts';

/** The spec's wait between an update and the restart that runs it. */
export const UPDATE_SETTLE_MS = 10_000;

type State =
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'updating';
      readonly to: string;
      readonly startedAt: number;
      readonly timer: NodeJS.Timeout;
    }
  | { readonly kind: 'updated'; readonly to: string; readonly startedAt: number };

/**
 * The update state of one agent process: idle → updating (the download, `durationMs`) → updated,
 * awaiting a restart. The spec tells a caller to wait UPDATE_SETTLE_MS after a successful update
 * before restarting, and the caller can only count from the update's answer: so the wait counts
 * from the update's start, and the download fits within it. A restart at least that long after
 * the update runs the new version; an earlier one runs the old version and drops the pending
 * update, so the new process starts idle and may be updated again.
 */
export class Updater {
  private state: State = { kind: 'idle' };

  constructor(
    private readonly version: string,
    private readonly checks: boolean,
    private readonly durationMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(durationMs >= 0 && durationMs < UPDATE_SETTLE_MS))
      throw new Error(`an update's download must take less than ${UPDATE_SETTLE_MS} ms`);
  }

  /** Starts an update, or says why it cannot: the spec's four failures, in this order. */
  update(releases: readonly string[]): AgentCommandError | undefined {
    if (!this.checks) return 'updateChecksDisabled';
    if (this.state.kind === 'updating') return 'alreadyUpdating';
    if (this.state.kind === 'updated') return 'updatedAwaitingRestart';
    const to = updateTarget(this.version, releases);
    if (to === undefined) return 'noUpdateAvailable';
    const startedAt = this.now();
    const timer = setTimeout(() => {
      this.state = { kind: 'updated', to, startedAt };
    }, this.durationMs);
    timer.unref();
    this.state = { kind: 'updating', to, startedAt, timer };
    return undefined;
  }

  /** The version a restart now runs. */
  versionForRestart(): string {
    const state = this.state;
    return state.kind === 'updated' && this.now() - state.startedAt >= UPDATE_SETTLE_MS
      ? state.to
      : this.version;
  }

  dispose(): void {
    if (this.state.kind === 'updating') clearTimeout(this.state.timer);
    this.state = { kind: 'idle' };
  }
}
