import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatClassDate, formatClassTime, isWithin, thisWeekRange, todayRange, tomorrowRange } from './studio-time';

// vi.stubEnv sets process.env.TZ, which Node applies to Date immediately.
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('studio time formatting', () => {
  it('shows London wall-clock time whatever the machine zone', () => {
    for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo']) {
      vi.stubEnv('TZ', zone);
      // 23:30 UTC on 1 June is 00:30 BST on Monday 2 June in London.
      expect(new Date(2025, 0, 1).getTimezoneOffset()).toBe(zone === 'UTC' ? 0 : zone === 'Asia/Tokyo' ? -540 : 480);
      expect(formatClassDate('2025-06-01T23:30:00Z')).toBe('Mon, Jun 2');
      expect(formatClassTime('2025-06-01T23:30:00Z')).toBe('12:30 AM');
      expect(formatClassTime('2025-12-01T06:00:00Z')).toBe('6:00 AM');
    }
  });
});

describe('London day ranges', () => {
  it('today runs from London midnight to the next (BST)', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    const range = todayRange(new Date('2025-06-02T08:00:00Z'));
    expect(range.start.toISOString()).toBe('2025-06-01T23:00:00.000Z');
    expect(range.end.toISOString()).toBe('2025-06-02T23:00:00.000Z');
    expect(isWithin('2025-06-01T23:30:00Z', range)).toBe(true);
    expect(isWithin('2025-06-02T23:00:00Z', range)).toBe(false);
  });
  it('handles the 25-hour day when BST ends (26 Oct 2025)', () => {
    const now = new Date('2025-10-26T12:00:00Z');
    const today = todayRange(now);
    expect(today.start.toISOString()).toBe('2025-10-25T23:00:00.000Z');
    expect(today.end.toISOString()).toBe('2025-10-27T00:00:00.000Z');
    const tomorrow = tomorrowRange(now);
    expect(tomorrow.start.toISOString()).toBe('2025-10-27T00:00:00.000Z');
    expect(tomorrow.end.toISOString()).toBe('2025-10-28T00:00:00.000Z');
  });
  it('handles the 23-hour day when BST starts (30 Mar 2025)', () => {
    const now = new Date('2025-03-29T23:30:00Z'); // Saturday 23:30 GMT
    expect(todayRange(now).end.toISOString()).toBe('2025-03-30T00:00:00.000Z');
    const tomorrow = tomorrowRange(now);
    expect(tomorrow.start.toISOString()).toBe('2025-03-30T00:00:00.000Z');
    expect(tomorrow.end.toISOString()).toBe('2025-03-30T23:00:00.000Z');
    expect(isWithin('2025-03-30T23:30:00Z', tomorrow)).toBe(false); // Monday 00:30 BST
  });
  it('this week starts on Sunday in London', () => {
    // Wednesday 29 Oct 2025; the week started Sunday 26 Oct at 00:00 BST.
    const week = thisWeekRange(new Date('2025-10-29T10:00:00Z'));
    expect(week.start.toISOString()).toBe('2025-10-25T23:00:00.000Z');
    expect(week.end.toISOString()).toBe('2025-11-02T00:00:00.000Z');
    // Sunday morning belongs to the new week, Saturday night to the old one.
    expect(thisWeekRange(new Date('2025-11-02T00:30:00Z')).start.toISOString()).toBe('2025-11-02T00:00:00.000Z');
    expect(thisWeekRange(new Date('2025-11-01T23:30:00Z')).start.toISOString()).toBe('2025-10-25T23:00:00.000Z');
  });
});
