const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/**
 * How far the API's clock may run ahead of this machine's. A time the API wrote a moment ago (an
 * agent last seen as it stopped) may be ahead of `now` by that much: it reads "now", never as
 * the future.
 */
const CLOCK_SKEW_MS = 60_000;

/** "3 minutes ago", from an RFC 3339 time. */
export function relativeTime(iso: string, now = Date.now()): string {
  const ahead = Date.parse(iso) - now;
  if (Number.isNaN(ahead)) return iso;
  const delta = ahead > 0 && ahead < CLOCK_SKEW_MS ? 0 : ahead;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms || unit === 'second')
      return format.format(Math.round(delta / ms), unit);
  }
  return iso;
}

/** An `<input type="datetime-local">` value (the person's local time) as RFC 3339 UTC. */
export function localInputToIso(value: string): string {
  return new Date(value).toISOString();
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/i;

/** True for an RFC 3339 time as the API writes them. */
export function isTimestamp(s: string): boolean {
  return RFC3339.test(s) && !Number.isNaN(Date.parse(s));
}

const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

/** The moment in the person's own time zone, to the second. */
export function localTime(iso: string): string {
  return exact.format(new Date(iso));
}
