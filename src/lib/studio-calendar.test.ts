import { TZDate, tz } from '@date-fns/tz';
import { differenceInCalendarDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import {
  DATE_FORMATS,
  formatInLondon,
  formatMemberSince,
  londonDaysUntil,
  londonToday,
  londonWallClockToUtc,
  startOfMonthInStudio,
  utcToLondonParts,
} from './studio-calendar';

describe('startOfMonthInStudio', () => {
  it('is midnight UTC on the 1st in winter (GMT)', () => {
    expect(startOfMonthInStudio(new Date('2025-12-15T12:00:00Z')).toISOString()).toBe('2025-12-01T00:00:00.000Z');
  });

  it('is 23:00 UTC the day before in summer (BST)', () => {
    expect(startOfMonthInStudio(new Date('2025-07-15T12:00:00Z')).toISOString()).toBe('2025-06-30T23:00:00.000Z');
  });

  it('puts the first London minute of a summer month in that month', () => {
    // 1 Aug 00:00 BST = 31 Jul 23:00 UTC: already August in London.
    expect(startOfMonthInStudio(new Date('2025-07-31T23:00:00Z')).toISOString()).toBe('2025-07-31T23:00:00.000Z');
    // One millisecond earlier is still July.
    expect(startOfMonthInStudio(new Date('2025-07-31T22:59:59.999Z')).toISOString()).toBe('2025-06-30T23:00:00.000Z');
  });

  it('handles the months where the clocks change', () => {
    // Clocks go forward on 30 Mar 2025: 1 Mar is still GMT, 1 Apr is BST.
    expect(startOfMonthInStudio(new Date('2025-03-31T12:00:00Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(startOfMonthInStudio(new Date('2025-04-01T00:30:00Z')).toISOString()).toBe('2025-03-31T23:00:00.000Z');
    // Clocks go back on 26 Oct 2025: 1 Oct is BST, 1 Nov is GMT.
    expect(startOfMonthInStudio(new Date('2025-10-31T23:30:00Z')).toISOString()).toBe('2025-09-30T23:00:00.000Z');
    expect(startOfMonthInStudio(new Date('2025-11-01T00:00:00Z')).toISOString()).toBe('2025-11-01T00:00:00.000Z');
  });
});

describe('formatMemberSince', () => {
  it('reads the month in London (midnight on the 1st in summer is still the previous day in UTC)', () => {
    expect(formatMemberSince('2025-06-30T23:30:00Z')).toBe('July 2025');
    expect(formatMemberSince('2025-01-15T12:00:00Z')).toBe('January 2025');
  });
});

describe('London wall clock', () => {
  it("reads a form's date and time as London time in both directions, across the clock change", () => {
    expect(londonWallClockToUtc('2025-07-01', '06:00')).toBe('2025-07-01T05:00:00.000Z');
    expect(londonWallClockToUtc('2025-12-01', '06:00')).toBe('2025-12-01T06:00:00.000Z');
    expect(utcToLondonParts('2025-06-30T23:30:00Z')).toEqual({ date: '2025-07-01', time: '00:30' });
  });

  it("counts London calendar days and knows London's today", () => {
    // 23:30 UTC on 30 June is already 1 July in London.
    expect(londonToday(new Date('2025-06-30T23:30:00Z'))).toBe('2025-07-01');
    expect(londonDaysUntil('2025-07-02T08:00:00Z', new Date('2025-06-30T23:30:00Z'))).toBe(1);
  });
});

// Every pattern the app formats with (DATE_FORMATS and the ones screens pass), read as date-fns
// reads them in London: the Intl formatter must say exactly what date-fns said.
const PATTERNS = [
  ...Object.values(DATE_FORMATS),
  'MMMM yyyy',
  'yyyy-MM',
  'yyyy-MM-dd',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd HH:mm:ss',
  'd MMM yyyy, HH:mm',
  'HH:mm',
  'h:mm a',
];
const inLondon = { in: tz('Europe/London') };
// Every 7 h 13 min over two years: each hour of the day, both clock changes, month and year ends.
const INSTANTS = Array.from({ length: 2420 }, (_, i) => new Date(Date.UTC(2025, 0, 1) + i * (7 * 60 + 13) * 60_000 + (i % 60) * 1000));
INSTANTS.push(
  new Date('2025-03-30T00:59:59Z'),
  new Date('2025-03-30T01:00:00Z'),
  new Date('2025-10-26T00:59:59Z'),
  new Date('2025-10-26T01:00:00Z'),
);

describe('the same words as date-fns', () => {
  it('formats every pattern the app uses as date-fns does in London', () => {
    for (const at of INSTANTS)
      for (const pattern of PATTERNS)
        expect(formatInLondon(at, pattern), `${at.toISOString()} ${pattern}`).toBe(format(at, pattern, inLondon));
  });

  it('counts calendar days and reads wall clocks as date-fns does', () => {
    const now = new Date('2025-06-30T23:30:00Z');
    for (const at of INSTANTS) {
      expect(londonDaysUntil(at, now), at.toISOString()).toBe(differenceInCalendarDays(at, now, inLondon));
      const { date, time } = utcToLondonParts(at.toISOString());
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const [hh, mm] = time.split(':').map(Number) as [number, number];
      const expected = new Date(new TZDate(y, m - 1, d, hh, mm, 'Europe/London').getTime()).toISOString();
      // The hour the clocks go back happens twice; a form's time names one of them.
      if (!(date === '2025-10-26' && hh === 1) && !(date === '2026-10-25' && hh === 1))
        expect(londonWallClockToUtc(date, time), `${date} ${time}`).toBe(expected);
    }
  });

  it('refuses a pattern token it does not know, and an unreadable date, in words', () => {
    expect(() => formatInLondon('2025-01-01T00:00:00Z', 'do MMM')).toThrow(/token "o" is not supported/);
    expect(() => formatInLondon('not a date', 'd MMM')).toThrow(RangeError);
  });
});
