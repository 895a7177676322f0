/**
 * The timetable's classes: the visitor's /schedule and every member screen that lists classes.
 * A module of its own so that a visitor's timetable loads these three keys and no member's.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const classKeys = {
  all: ['classes'] as const,
  list: (params: Record<string, unknown>) => ['classes', 'list', params] as const,
  detail: (classId: string) => ['classes', 'detail', classId] as const,
} as const;
