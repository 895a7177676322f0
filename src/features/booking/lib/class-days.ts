import { formatDayHeading, studioDayKey } from '@/lib/studio-time';

export type ClassDay<T> = { key: string; heading: string; classes: T[] };

/** Consecutive classes (already in start order) grouped by their London day. */
export function groupByDay<T extends { start_time: string }>(classes: T[]): ClassDay<T>[] {
  const days: ClassDay<T>[] = [];
  for (const cls of classes) {
    const key = studioDayKey(cls.start_time);
    const last = days[days.length - 1];
    if (last?.key === key) last.classes.push(cls);
    else days.push({ key, heading: formatDayHeading(cls.start_time), classes: [cls] });
  }
  return days;
}
