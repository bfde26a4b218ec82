export type RateLimit = { readonly requests: number; readonly windowSeconds: number };

/**
 * A rolling window per account: the times of the last `requests` admitted requests in a ring.
 * A request is admitted when the ring has room or its oldest entry has left the window; O(1).
 * Refused requests are not recorded, so a client that keeps retrying is admitted again as soon
 * as the window has rolled past its oldest admitted request.
 */
export class RateLimiter {
  private readonly rings = new Map<string, { times: Float64Array; next: number; count: number }>();
  private readonly windowMs: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowMs = limit.windowSeconds * 1000;
  }

  /** Admits a request of `account` (undefined), or says in how many ms one will be admitted. */
  take(account: string): number | undefined {
    let ring = this.rings.get(account);
    if (!ring) {
      ring = { times: new Float64Array(this.limit.requests), next: 0, count: 0 };
      this.rings.set(account, ring);
    }
    const now = this.now();
    if (ring.count === ring.times.length) {
      // When full, `next` is also the oldest entry.
      const oldest = ring.times[ring.next] ?? 0;
      const wait = oldest + this.windowMs - now;
      if (wait > 0) return wait;
    } else {
      ring.count++;
    }
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % ring.times.length;
    return undefined;
  }
}

/** `120/60` → 120 requests per 60 s; `off` → no limit. */
export function parseRateLimit(text: string): RateLimit | 'off' {
  if (text === 'off') return 'off';
  const match = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/.exec(text);
  if (!match)
    throw new Error(`--rate-limit must be "<requests>/<seconds>" or "off", not "${text}"`);
  return { requests: Number(match[1]), windowSeconds: Number(match[2]) };
}
