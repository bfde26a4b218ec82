import { describe, expect, it } from 'vitest';
import { clockTime, duration, exactTime, timeWords } from '../../../../shared/app/clock.ts';

describe('duration', () => {
  it('says the two largest units, in words, as the ssh-agent message needs them', () => {
    expect(duration(86_396)).toBe('23 hours 59 minutes');
    expect(duration(2 * 86_400 + 3_600 + 59)).toBe('2 days 1 hour');
    expect(duration(3_600)).toBe('1 hour');
    expect(duration(61)).toBe('1 minute');
  });

  it('counts seconds only below a minute, and never less than none', () => {
    expect(duration(45)).toBe('45 seconds');
    expect(duration(1)).toBe('1 second');
    expect(duration(0.4)).toBe('0 seconds');
    expect(duration(-5)).toBe('0 seconds');
  });

  it('says it short for a timeline: hours and minutes, cut off, never days', () => {
    expect(duration(23 * 3_600 + 40 * 60 + 59, 'short')).toBe('23 h 40 min');
    expect(duration(25 * 3_600, 'short')).toBe('25 h');
    expect(duration(5 * 60 + 59.9, 'short')).toBe('5 min');
    expect(duration(59.9, 'short')).toBe('under a minute');
    expect(duration(-5, 'short')).toBe('under a minute');
  });
});

const NOW = Date.parse('2026-05-01T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const HOUR = 3_600_000;

describe('timeWords', () => {
  it('never says a time the API just wrote is in the future: its clock a little ahead reads "now"', () => {
    expect(timeWords(at(3_000), NOW)).toBe('now');
    expect(timeWords(at(59_000), NOW)).toBe('now');
    expect(timeWords(at(-9_000), NOW)).toBe('9 seconds ago');
  });

  it('reads relative within a day, future too where it is further ahead than any clock drifts', () => {
    expect(timeWords(at(5 * 60_000), NOW)).toBe('in 5 minutes');
    expect(timeWords(NOW - 3 * HOUR, NOW)).toBe('3 hours ago');
    expect(timeWords(NOW - 23 * HOUR, NOW)).toBe('23 hours ago');
  });

  it('reads a date and time in the locale further than a day, never the API’s ISO string', () => {
    const old = at(-40 * 24 * HOUR);
    const words = timeWords(old, NOW);
    expect(words).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        Date.parse(old),
      ),
    );
    expect(words).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(timeWords(NOW + 90 * 24 * HOUR, NOW)).toContain('2026');
  });

  it('leaves what is not a time as it is', () => {
    expect(timeWords('soon', NOW)).toBe('soon');
    expect(exactTime('soon')).toBe('soon');
  });
});

describe('clockTime', () => {
  it('says a moment of today as the locale’s clock does (12 or 24 hours), another day’s with its date', () => {
    const today = NOW - HOUR;
    expect(clockTime(today, NOW)).toBe(
      new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(today),
    );
    const lastWeek = NOW - 7 * 24 * HOUR;
    expect(clockTime(lastWeek, NOW)).not.toBe(clockTime(lastWeek, lastWeek));
    expect(clockTime(lastWeek, NOW)).toContain(clockTime(lastWeek, lastWeek));
  });
});
