import { describe, expect, it } from 'vitest';
import { duration } from '../../../../shared/app/clock.ts';

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
});
