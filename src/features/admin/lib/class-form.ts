import type { ClassRow } from '@/lib/supabase';
import type { Database } from '@/lib/database.types';
import { occurrenceStartTimes, type Repeat } from './repeat-occurrences';
import { utcToLondonParts } from '@/lib/studio-calendar';

export type ClassInsert = Database['public']['Tables']['classes']['Insert'];

/** Limits of the admin class form (spec section 5); the database checks the same ranges. */
export const CLASS_LIMITS = {
  durationMin: 15,
  durationMax: 180,
  durationDefault: 45,
  capacityMin: 1,
  capacityMax: 50,
  capacityOneToOne: 1,
  capacityDefault: 10,
  unlockDefaultAmount: 3,
} as const;

export const CLASS_TYPES = ['Group', 'One-to-One'] as const;
export const UNLOCK_UNITS = ['days', 'hours', 'minutes'] as const;
export type UnlockUnit = (typeof UNLOCK_UNITS)[number];

/** What the form holds: strings as inputs give them, parsed on submit. */
export type ClassFormValues = {
  name: string;
  description: string;
  duration: string;
  date: string;
  time: string;
  trainer: string;
  type: string;
  capacity: string;
  pricePayg: string;
  /** Children's age range (family accounts); both blank = adults only. */
  minAge: string;
  maxAge: string;
  checkoutUrl: string;
  /** A meeting point's id (decision 0055); '' = the hall. */
  meetingPointId: string;
  isPremium: boolean;
  unlockAmount: string;
  unlockUnit: UnlockUnit;
  repeat: Repeat;
  repeatUntil: string;
};

export function emptyClassForm(trainer: string): ClassFormValues {
  return {
    name: '',
    description: '',
    duration: String(CLASS_LIMITS.durationDefault),
    date: '',
    time: '',
    trainer,
    type: 'Group',
    capacity: String(CLASS_LIMITS.capacityDefault),
    pricePayg: '',
    minAge: '',
    maxAge: '',
    checkoutUrl: '',
    meetingPointId: '',
    isPremium: false,
    unlockAmount: String(CLASS_LIMITS.unlockDefaultAmount),
    unlockUnit: 'days',
    repeat: 'none',
    repeatUntil: '',
  };
}

/** The stored unlock window ('3 days') split into the form's amount and unit. */
function parseUnlockWindow(value: string): { amount: string; unit: UnlockUnit } {
  const match = /^(\d+) (day|hour|minute)s?$/.exec(value.trim());
  if (!match) return { amount: String(CLASS_LIMITS.unlockDefaultAmount), unit: 'days' };
  return { amount: match[1]!, unit: `${match[2]!}s` as UnlockUnit };
}

export function classToFormValues(row: ClassRow): ClassFormValues {
  const { date, time } = utcToLondonParts(row.start_time);
  const unlock = parseUnlockWindow(row.unlock_for_standard);
  return {
    name: row.name,
    description: row.description ?? '',
    duration: String(row.duration),
    date,
    time,
    trainer: row.trainer,
    type: row.type,
    capacity: String(row.capacity),
    pricePayg: row.price_payg == null ? '' : String(row.price_payg),
    minAge: row.min_age == null ? '' : String(row.min_age),
    maxAge: row.max_age == null ? '' : String(row.max_age),
    checkoutUrl: row.checkout_url ?? '',
    meetingPointId: row.meeting_point_id ?? '',
    isPremium: row.is_premium,
    unlockAmount: unlock.amount,
    unlockUnit: unlock.unit,
    repeat: 'none',
    repeatUntil: '',
  };
}

export function maxCapacityFor(type: string): number {
  return type === 'One-to-One' ? CLASS_LIMITS.capacityOneToOne : CLASS_LIMITS.capacityMax;
}

export function startTimesFor(values: Pick<ClassFormValues, 'date' | 'time' | 'repeat' | 'repeatUntil'>): string[] {
  return occurrenceStartTimes(values.date, values.time, values.repeat, values.repeatUntil);
}

/** The columns an admin writes (the class form payload of spec section 3, plus premium fields). */
export function classPayload(values: ClassFormValues, startTime: string): ClassInsert {
  const unit = values.unlockUnit;
  const amount = Number(values.unlockAmount);
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    duration: Number(values.duration),
    start_time: startTime,
    trainer: values.trainer.trim(),
    type: values.type,
    capacity: Number(values.capacity),
    price_payg: values.pricePayg.trim() ? Number(values.pricePayg) : null,
    min_age: values.minAge.trim() ? Number(values.minAge) : null,
    max_age: values.maxAge.trim() ? Number(values.maxAge) : null,
    checkout_url: values.checkoutUrl.trim() || null,
    meeting_point_id: values.meetingPointId || null,
    is_premium: values.isPremium,
    // '1 days' reads oddly; the stored format accepts both singular and plural.
    unlock_for_standard: values.isPremium
      ? `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`
      : `${CLASS_LIMITS.unlockDefaultAmount} days`,
  };
}

/** One row per occurrence (one for an edit or a non-repeating class), ready for one insert request. */
export function classPayloads(values: ClassFormValues): ClassInsert[] {
  return startTimesFor(values).map((start) => classPayload(values, start));
}
