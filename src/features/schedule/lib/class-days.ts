import type { ClassRow } from '@/lib/supabase';
import { formatDayHeading, startOfStudioDay } from '@/lib/studio-time';

export type ClassDay = { key: string; heading: string; classes: ClassRow[] };

/** Consecutive classes (already in start order) grouped by their London day. */
export function groupByDay(classes: ClassRow[]): ClassDay[] {
  const days: ClassDay[] = [];
  for (const cls of classes) {
    const key = startOfStudioDay(cls.start_time).toISOString();
    const last = days[days.length - 1];
    if (last?.key === key) last.classes.push(cls);
    else days.push({ key, heading: formatDayHeading(cls.start_time), classes: [cls] });
  }
  return days;
}
