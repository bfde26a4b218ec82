const HOUR_MS = 3_600_000;

/** The requests drift may make in an hour: `percent` of what the key's window allows in one. */
export function hourlyAllowance(
  limit: { readonly capacity: number; readonly windowMs: number },
  percent: number,
): number {
  return Math.floor(((limit.capacity * HOUR_MS) / limit.windowMs) * (percent / 100));
}

export type Spend = { readonly ok: true } | { readonly ok: false; readonly retryAt: number };

/**
 * The requests one profile's checks made in the last hour, so that a check that would take it
 * over its allowance waits until enough of them are an hour old.
 */
export class HourlySpend {
  private spent: { readonly at: number; readonly requests: number }[] = [];

  record(at: number, requests: number): void {
    if (requests > 0) this.spent.push({ at, requests });
  }

  /** Whether `requests` more fit in `allowance` at `now`; if not, when they will. */
  fits(requests: number, allowance: number, now: number): Spend {
    this.spent = this.spent.filter((s) => s.at + HOUR_MS > now);
    let used = this.used();
    // A check larger than the whole allowance runs when the hour is clear, then waits an hour.
    if (used + requests <= allowance || used === 0) return { ok: true };
    for (const { at, requests: n } of this.spent) {
      used -= n;
      if (used + requests <= allowance || used === 0) return { ok: false, retryAt: at + HOUR_MS };
    }
    return { ok: false, retryAt: now + HOUR_MS };
  }

  used(): number {
    return this.spent.reduce((n, s) => n + s.requests, 0);
  }
}

/** Why a check waits, as `lastCheck.error` says it. */
export function postponedReason(cost: number, allowance: number, percent: number): string {
  return (
    `Postponed: a check takes about ${cost} requests and drift watch may use ${allowance} an ` +
    `hour (${percent} % of the rate limit); it runs when the last hour's checks allow`
  );
}
