import { formatDayHeading, formatMonthDay, formatWeekdayShort, studioDayKey } from '@/lib/studio-time';

/**
 * The days /schedule's day picker offers: today and the days after it, as London
 * calendar days ("2026-11-26", the `?day=` of the URL), whatever the visitor's machine says.
 */
export type ScheduleDay = {
  /** "2026-11-26": the London day, as the URL and studioDayKey write it. */
  key: string;
  /** 0 today, 1 tomorrow, ... */
  offset: number;
  /** "Today", "Tomorrow", or "Fri". */
  name: string;
  /** "Nov 28". */
  date: string;
  /** "Friday 28 Nov": the day in full, for the empty state. */
  heading: string;
};

/** Days the picker offers: two weeks from today. */
export const SCHEDULE_DAYS = 14;

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Today's London day and the `count - 1` after it. Days are counted on the calendar (not in steps
 * of 24 hours, which a change of the clocks would turn into a repeated or skipped day); each is
 * named from its noon UTC, which is the same day in London in winter and in summer.
 */
export function comingDays(now: Date, count = SCHEDULE_DAYS): ScheduleDay[] {
  const [, y, m, d] = DAY_KEY.exec(studioDayKey(now))!;
  return Array.from({ length: count }, (_, offset) => {
    const noon = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + offset, 12));
    const key = noon.toISOString().slice(0, 10);
    const date = formatMonthDay(noon);
    return {
      key,
      offset,
      name: offset === 0 ? 'Today' : offset === 1 ? 'Tomorrow' : formatWeekdayShort(noon),
      date,
      heading: formatDayHeading(noon),
    };
  });
}

/** The offered day a `?day=` names, or null (none, malformed, past or beyond the picker: all days). */
export function dayFromParam(param: string | null, days: ScheduleDay[]): ScheduleDay | null {
  if (!param || !DAY_KEY.test(param)) return null;
  return days.find((day) => day.key === param) ?? null;
}
