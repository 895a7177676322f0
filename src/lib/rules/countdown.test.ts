import { describe, expect, it } from 'vitest';
import { CLASS_STARTED_TEXT, countdownParts, formatCountdown, formatTimeLeft } from './countdown';

const start = new Date('2025-11-10T10:00:00Z');
const before = (ms: number) => new Date(start.getTime() - ms);
const MIN = 60_000;

describe('countdown', () => {
  it('says the class has started exactly at the start time and after it', () => {
    expect(countdownParts(start, start)).toBeNull();
    expect(formatCountdown(start, start)).toBe(CLASS_STARTED_TEXT);
    expect(formatCountdown(start, new Date(start.getTime() + 1))).toBe('Class has started');
  });

  it('shows 0m in the last minute before the start', () => {
    expect(formatCountdown(start, before(1))).toBe('0m');
    expect(formatCountdown(start, before(59_999))).toBe('0m');
    expect(formatCountdown(start, before(MIN))).toBe('1m');
  });

  it('splits into days, hours and minutes', () => {
    expect(countdownParts(start, before(2 * 24 * 60 * MIN + 3 * 60 * MIN + 15 * MIN))).toEqual({ days: 2, hours: 3, minutes: 15 });
    expect(formatCountdown(start, before(2 * 24 * 60 * MIN + 3 * 60 * MIN + 15 * MIN))).toBe('2d 3h 15m');
  });

  it('keeps zero hours between days and minutes, and drops leading zero units', () => {
    expect(formatCountdown(start, before(24 * 60 * MIN))).toBe('1d 0h 0m');
    expect(formatCountdown(start, before(24 * 60 * MIN - 1))).toBe('23h 59m');
    expect(formatCountdown(start, before(60 * MIN))).toBe('1h 0m');
  });
});

describe('formatTimeLeft', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  const MIN = 60_000;
  it('shows days, hours and minutes, rounding the last minute up', () => {
    expect(formatTimeLeft(new Date(now.getTime() + 2 * 1440 * MIN + 4 * 60 * MIN + 30 * MIN), now)).toBe('2d 4h 30m');
    expect(formatTimeLeft(new Date(now.getTime() + 3 * 60 * MIN), now)).toBe('3h 0m');
    expect(formatTimeLeft(new Date(now.getTime() + 59 * 1000), now)).toBe('1m');
  });
});
