/**
 * The coach area (decision 0027): the caller's trainer, their classes and each class's roster.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const coachKeys = {
  all: ['coach'] as const,
  profile: (userId: string) => ['coach', 'profile', userId] as const,
  classes: () => ['coach', 'classes'] as const,
  roster: (classId: string) => ['coach', 'roster', classId] as const,
  /** Cover requests under way (decision 0087): the coach's own and the others' to accept. */
  cover: () => ['coach', 'cover'] as const,
  /** The coach's own pay statement for a month ('2026-11'). */
  pay: (month: string) => ['coach', 'pay', month] as const,
} as const;
