import { describe, expect, it } from 'vitest';
import { formatTimeUntil, parseUnlockWindow } from './lock-window';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('parseUnlockWindow', () => {
  it('reads days, hours and minutes, singular or plural', () => {
    expect(parseUnlockWindow('3 days')).toBe(3 * DAY);
    expect(parseUnlockWindow('1 day')).toBe(DAY);
    expect(parseUnlockWindow('12 hours')).toBe(12 * HOUR);
    expect(parseUnlockWindow('1 hour')).toBe(HOUR);
    expect(parseUnlockWindow('90 minutes')).toBe(90 * MIN);
    expect(parseUnlockWindow('1 minute')).toBe(MIN);
  });
  it('falls back to 3 days for an empty or malformed window', () => {
    for (const value of [null, undefined, '', 'soon', '3 weeks', '-1 days']) {
      expect(parseUnlockWindow(value)).toBe(3 * DAY);
    }
  });
});

describe('formatTimeUntil', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  it('shows days, hours and minutes', () => {
    expect(formatTimeUntil(new Date(now.getTime() + 2 * DAY + 4 * HOUR + 30 * MIN), now)).toBe('2d 4h 30m');
    expect(formatTimeUntil(new Date(now.getTime() + 3 * HOUR), now)).toBe('3h 0m');
    expect(formatTimeUntil(new Date(now.getTime() + 59 * 1000), now)).toBe('1m');
  });
});
