import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';
import { BOOKING_MESSAGES } from './booking-messages';

/**
 * Waitlist requests (issue 9, decision 0005): the database keeps the order and promotes the first
 * in line when a spot frees, so the app only joins, leaves and reads positions, one RPC each.
 */

/** Where the member stands on one class's waitlist (`my_waitlist`, classes not started). */
export type WaitlistSpot = {
  classId: string;
  position: number;
  waitlistSize: number;
  closesAt: Date;
  isClosed: boolean;
};

type SpotRow = { class_id: string; position: number; waitlist_size: number; closes_at: string; is_closed?: boolean };

function toSpot(row: SpotRow): WaitlistSpot {
  return {
    classId: row.class_id,
    position: row.position,
    waitlistSize: row.waitlist_size,
    closesAt: new Date(row.closes_at),
    isClosed: row.is_closed ?? false,
  };
}

/** Every waitlist the signed-in member is on, in one request. */
export async function getWaitlistSpots(): Promise<WaitlistSpot[]> {
  const { data, error } = await supabase.rpc('my_waitlist');
  if (error) throw error;
  return ((data ?? []) as SpotRow[]).map(toSpot);
}

export type WaitlistOutcome<T> = { ok: true; value: T } | { ok: false; error: PostgrestError };

/** Joins a full class's waitlist; the answer is the member's place in it. */
export async function joinWaitlist(classId: string): Promise<WaitlistOutcome<WaitlistSpot>> {
  const { data, error } = await supabase.rpc('join_waitlist', { p_class_id: classId });
  if (error) return { ok: false, error };
  return { ok: true, value: toSpot(data as unknown as SpotRow) };
}

/** Leaves a class's waitlist (the database moves everyone behind up one). */
export async function leaveWaitlist(classId: string): Promise<WaitlistOutcome<null>> {
  const { error } = await supabase.rpc('leave_waitlist', { p_class_id: classId });
  return error ? { ok: false, error } : { ok: true, value: null };
}

export const WAITLIST_MESSAGES = {
  join: 'Join Waitlist',
  joining: 'Joining...',
  leave: 'Leave Waitlist',
  leaving: 'Leaving...',
  closed: 'Waitlist closed',
  confirmLeave: 'Leave the waitlist for this class? You will lose your place.',
  joined: (spot: Pick<WaitlistSpot, 'position'>) => `You're on the waitlist: #${spot.position}. We'll email you if a spot opens.`,
  left: 'You left the waitlist',
  joinFailed: 'Could not join the waitlist. Please try again.',
  leaveFailed: 'Could not leave the waitlist. Please try again.',
} as const;

/** "On waitlist: #1 of 3". */
export function waitlistPlace(spot: Pick<WaitlistSpot, 'position' | 'waitlistSize'>): string {
  return `On waitlist: #${spot.position} of ${spot.waitlistSize}`;
}

/** Refusals whose message is product copy (docs/data-contract.md), shown as the server words it. */
const SHOWN_AS_IS = new Set([
  'class_not_full',
  'already_waitlisted',
  'waitlist_closed',
  'waitlist_payment_required',
  'not_on_waitlist',
  'class_started',
  'class_locked',
  'class_not_found',
]);

/** The toast for a refused join or leave; anything unexpected gets `fallback`. */
export function waitlistErrorMessage(error: Pick<PostgrestError, 'code' | 'hint' | 'message'>, fallback: string): string {
  if (error.hint === 'already_booked') return BOOKING_MESSAGES.duplicate;
  return error.hint && SHOWN_AS_IS.has(error.hint) ? error.message : fallback;
}
