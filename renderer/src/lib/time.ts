/* Times as the API and inputs write them; how a moment reads is shared/app/clock.ts' (one clock). */

/** An `<input type="datetime-local">` value (the person's local time) as RFC 3339 UTC. */
export function localInputToIso(value: string): string {
  return new Date(value).toISOString();
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/i;

/** True for an RFC 3339 time as the API writes them. */
export function isTimestamp(s: string): boolean {
  return RFC3339.test(s) && !Number.isNaN(Date.parse(s));
}
