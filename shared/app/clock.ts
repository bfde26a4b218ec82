/*
 * The one way a moment reads, everywhere (window, tray, notifications): from the person's locale,
 * its 12- or 24-hour clock included (Intl with the default locale). Recent moments read relative
 * ("3 minutes ago"), older ones as a date and time; the exact time is for hovering.
 */

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const DAY_MS = 86_400_000;
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/**
 * How far the API's clock may run ahead of this machine's. A time the API wrote a moment ago (an
 * agent last seen as it stopped) may be ahead of `now` by that much: it reads "now", never as
 * the future.
 */
const CLOCK_SKEW_MS = 60_000;

const msOf = (at: number | string): number => (typeof at === 'number' ? at : Date.parse(at));

/**
 * A moment for a text that is not redrawn as time passes (a tray menu, a notification): its time
 * of day ("09:05", "9:05 AM"), with its date when it is not of `now`'s day.
 */
export function clockTime(at: number, now: number): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return (sameDay ? timeOfDay : dateAndTime).format(at);
}

/**
 * A moment as a person reads it: "3 minutes ago" or "in 2 hours" within a day of `now`, a date
 * and time further off. An RFC 3339 string that does not parse reads as itself.
 */
export function timeWords(at: number | string, now = Date.now()): string {
  const ms = msOf(at);
  if (Number.isNaN(ms)) return String(at);
  const ahead = ms - now;
  const delta = ahead > 0 && ahead < CLOCK_SKEW_MS ? 0 : ahead;
  if (Math.abs(delta) >= DAY_MS) return dateAndTime.format(ms);
  const [unit, size] = UNITS.find(([, size]) => Math.abs(delta) >= size) ?? ['second', 1_000];
  return relative.format(Math.round(delta / size), unit);
}

/** The moment in the person's own time zone, to the second: what hovering a time shows. */
export function exactTime(at: number | string): string {
  const ms = msOf(at);
  return Number.isNaN(ms) ? String(at) : exact.format(ms);
}

type DurationStyle = {
  /** The units counted, largest first; at most two of them are said. */
  readonly units: ReadonlyArray<readonly [string, number]>;
  readonly say: (n: number, unit: string) => string;
  /** What is said when no unit counts one: the seconds, or that it was less than a minute. */
  readonly less: (seconds: number) => string;
  /** Whether a part second rounds (in words) or is cut off (short: never more than it was). */
  readonly whole: (seconds: number) => number;
};

const DURATION_STYLES: Record<'words' | 'short', DurationStyle> = {
  words: {
    units: [
      ['day', 86_400],
      ['hour', 3_600],
      ['minute', 60],
    ],
    say: (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`,
    // Seconds only matter while there is less than a minute.
    less: (seconds) => `${seconds} second${seconds === 1 ? '' : 's'}`,
    whole: Math.round,
  },
  short: {
    // Hours are never turned into days: a timeline spans one.
    units: [
      ['h', 3_600],
      ['min', 60],
    ],
    say: (n, unit) => `${n} ${unit}`,
    less: () => 'under a minute',
    whole: Math.floor,
  },
};

/**
 * A length of time as a person says it, from its seconds. In words (a sentence, a notification):
 * "23 hours 59 minutes", "2 days 1 hour", "45 seconds". Short (a timeline's bands and summary):
 * "23 h 40 min", "5 min", "under a minute".
 */
export function duration(seconds: number, style: 'words' | 'short' = 'words'): string {
  const { units, say, less, whole } = DURATION_STYLES[style];
  const parts: string[] = [];
  let left = Math.max(0, whole(seconds));
  for (const [unit, size] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) parts.push(say(n, unit));
  }
  if (parts.length === 0) parts.push(less(left));
  return parts.slice(0, 2).join(' ');
}
