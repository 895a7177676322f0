import type { AdminWaitlistEntry } from '../api/get-waitlists';

export type WaitlistGroup = {
  class: AdminWaitlistEntry['class'];
  /** In line order; `position` counts from 1 as the member sees it. */
  entries: (AdminWaitlistEntry & { position: number })[];
};

/** Waitlist rows grouped by class (soonest class first), each in joining order with its position. */
export function groupWaitlists(rows: readonly AdminWaitlistEntry[]): WaitlistGroup[] {
  const byClass = new Map<string, WaitlistGroup>();
  for (const row of [...rows].sort((a, b) => a.seq - b.seq)) {
    const group = byClass.get(row.class.id) ?? { class: row.class, entries: [] };
    group.entries.push({ ...row, position: group.entries.length + 1 });
    byClass.set(row.class.id, group);
  }
  return [...byClass.values()].sort(
    (a, b) => a.class.startTime.localeCompare(b.class.startTime) || a.class.name.localeCompare(b.class.name),
  );
}
