const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "3 minutes ago", from an RFC 3339 time. */
export function relativeTime(iso: string, now = Date.now()): string {
  const delta = Date.parse(iso) - now;
  if (Number.isNaN(delta)) return iso;
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
