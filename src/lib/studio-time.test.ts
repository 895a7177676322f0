import { format } from 'date-fns';
import { tz } from '@date-fns/tz';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATE_FORMATS } from './studio-calendar';
import { formatClassDate, formatClassDateTime, formatClassTime, formatDayHeading, studioDayKey } from './studio-time';

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
      expect(formatClassDate('2025-06-01T23:30:00Z')).toBe('Mon 2 Jun');
      expect(formatClassTime('2025-06-01T23:30:00Z')).toBe('12:30 AM');
      expect(formatClassTime('2025-12-01T06:00:00Z')).toBe('6:00 AM');
      expect(formatDayHeading('2025-06-01T23:30:00Z')).toBe('Monday 2 Jun');
      expect(studioDayKey('2025-06-01T23:30:00Z')).toBe('2025-06-02');
      expect(formatClassDateTime('2025-12-01T12:05:00Z')).toBe('Mon 1 Dec at 12:05 PM');
    }
  });

  it('reads dates in British order, never the US "Mon, Jun 2"', () => {
    expect(formatClassDate('2026-09-07T09:00:00Z')).toBe('Mon 7 Sep');
    expect(formatDayHeading('2026-09-07T09:00:00Z')).toBe('Monday 7 Sep');
    expect(formatClassDateTime('2026-09-07T09:00:00Z')).toBe('Mon 7 Sep at 10:00 AM');
  });

  it("agrees with date-fns in London's zone every 45 minutes for a year, across both clock changes", () => {
    const inLondon = { in: tz('Europe/London') };
    const mismatches: string[] = [];
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 45 * 60_000) {
      const expected = [
        format(t, DATE_FORMATS.weekdayDay, inLondon),
        format(t, 'h:mm a', inLondon),
        format(t, DATE_FORMATS.longWeekdayDay, inLondon),
        format(t, 'yyyy-MM-dd', inLondon),
      ];
      const actual = [formatClassDate(t), formatClassTime(t), formatDayHeading(t), studioDayKey(t)];
      if (actual.join('|') !== expected.join('|'))
        mismatches.push(`${new Date(t).toISOString()}: ${actual.join('|')} ≠ ${expected.join('|')}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
