export interface MonitorControl {
  pause(): void;
  resume(): void;
}

export type PauseReason = 'suspend' | 'lock-screen';

/**
 * Pauses the monitor while the machine sleeps or its screen is locked, and resumes it when
 * neither holds any more: waking up still locked keeps it paused. No polling while nobody can
 * see the result, and no burst of stale "offline" notifications on wake-up.
 */
export function powerPauser(monitor: MonitorControl): {
  begin(reason: PauseReason): void;
  end(reason: PauseReason): void;
} {
  const reasons = new Set<PauseReason>();
  return {
    begin(reason) {
      if (reasons.size === 0) monitor.pause();
      reasons.add(reason);
    },
    end(reason) {
      if (reasons.delete(reason) && reasons.size === 0) monitor.resume();
    },
  };
}
