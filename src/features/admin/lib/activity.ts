import type { CsvColumn } from '@/lib/csv/write-csv';
import { formatInLondon } from '@/lib/studio-calendar';

/** The areas a recorded change belongs to (audit_events_kind_check, 25_audit.sql). */
export const ACTIVITY_KINDS = [
  'class',
  'closure',
  'trainer',
  'booking',
  'attendance',
  'waitlist',
  'member',
  'plan',
  'price',
  'payment',
  'refund',
  'credit',
  'document',
  'settings',
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  class: 'Classes',
  closure: 'Closures',
  trainer: 'Trainers',
  booking: 'Bookings',
  attendance: 'Attendance',
  waitlist: 'Waitlists',
  member: 'Members',
  plan: 'Plans',
  price: 'Prices',
  payment: 'Payments',
  refund: 'Refunds',
  credit: 'Credits',
  document: 'Documents',
  settings: 'Settings',
};

const ACTION_WORDS: Record<string, string> = { insert: 'Added', update: 'Changed', delete: 'Removed' };

/** The fields an event shows and exports (a subset of the row, so tests can build them small). */
export type ActivityRow = {
  at: string;
  actor_name: string;
  actor_role: string;
  action: string;
  kind: string;
  table_name: string;
  row_id: string | null;
  subject: string | null;
  before: unknown;
  after: unknown;
};

export const actionWord = (action: string) => ACTION_WORDS[action] ?? action;

export const kindLabel = (kind: string) => ACTIVITY_KIND_LABELS[kind as ActivityKind] ?? kind;

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * What changed, in one line per field: `capacity: 8 → 12` for an update, every field for an
 * insert or a delete (the row as it was or became).
 */
export function changeLines(event: Pick<ActivityRow, 'action' | 'before' | 'after'>): string[] {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  if (event.action === 'update') return Object.keys(after).map((key) => `${key}: ${show(before[key])} → ${show(after[key])}`);
  const row = event.action === 'delete' ? before : after;
  return Object.keys(row).map((key) => `${key}: ${show(row[key])}`);
}

export const ACTIVITY_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export const ACTIVITY_CSV_COLUMNS: readonly CsvColumn<ActivityRow>[] = [
  { header: 'When (London)', value: (e) => formatInLondon(e.at, ACTIVITY_TIME_FORMAT) },
  { header: 'Who', value: (e) => e.actor_name },
  { header: 'Role', value: (e) => e.actor_role },
  { header: 'Kind', value: (e) => kindLabel(e.kind) },
  { header: 'Action', value: (e) => actionWord(e.action) },
  { header: 'Member or class', value: (e) => e.subject },
  { header: 'Table', value: (e) => e.table_name },
  { header: 'Row', value: (e) => e.row_id },
  { header: 'Before', value: (e) => (e.before == null ? null : JSON.stringify(e.before)) },
  { header: 'After', value: (e) => (e.after == null ? null : JSON.stringify(e.after)) },
];
