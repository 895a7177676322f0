import type { PostgrestError } from '@supabase/supabase-js';
import type { BookClassResult } from '../api/book-class';
import { CLASSES_LOAD_FAILED } from './schedule-messages';

/** A refusal raised by an RPC (`hint` is the stable code) or a transport failure (no hint). */
export type RpcError = Pick<PostgrestError, 'code' | 'message' | 'hint' | 'details'>;

/** Member booking copy of spec section 8, verbatim. */
export const BOOKING_MESSAGES = {
  booked: 'Class booked successfully!',
  /** A One-to-One booked with a personal-training session (book_with_credit). */
  sessionBooked: 'Session booked! It uses one of your personal-training sessions.',
  trialBooked: 'Trial class booked for free!',
  trialTransition: 'Free trial class booked! You are now on Pay-As-You-Go.',
  formConfirmed: 'Booking confirmed! Redirecting to My Bookings...',
  duplicate: "You've already booked this class.",
  memberNotFound: 'Member not found. Please sign in again.',
  failedToBook: 'Failed to book class',
  bookingFailed: 'Booking failed. Please try again.',
  formFailed: 'Failed to complete booking. Please try again.',
  cancelled: 'Booking cancelled',
  cancelFailed: 'Failed to cancel booking',
  cancelNotPermitted: 'Could not cancel this booking (permission).',
  classesLoadFailed: CLASSES_LOAD_FAILED,
  bookingsLoadFailed: 'Unable to load your bookings',
  dashboardLoadFailed: 'Failed to load dashboard data',
} as const;

/** The success toast for what the server booked. */
export function bookedMessage(result: BookClassResult): string {
  if (result.booking_type === 'trial') {
    return result.previous_tier === 'trial' ? BOOKING_MESSAGES.trialTransition : BOOKING_MESSAGES.trialBooked;
  }
  if (result.booking_type === 'credit') return BOOKING_MESSAGES.sessionBooked;
  return BOOKING_MESSAGES.booked;
}

/** The database's refusal of a booking or a waitlist place before the current documents are signed. */
export const DOCUMENTS_REQUIRED = 'documents_required';

/** RPC refusals whose message is product copy, shown as the server words it (data contract). */
const SHOWN_AS_IS = new Set([
  'class_not_found',
  'class_started',
  'class_full',
  'class_locked',
  'trial_unavailable',
  'not_authenticated',
  'plan_required',
  'allowance_used',
  'outside_plan_period',
  'plan_paused',
  'booking_blocked',
  'no_credit',
  'weekly_cap_reached',
  'credit_not_for_class',
  'invalid_booking_type',
]);

export type BookingErrorView = {
  message: string;
  /** The session or member is gone: send the person to /signin. */
  signInAgain: boolean;
  /** The current terms, waiver or PAR-Q are not signed: send the member to sign them. */
  signDocuments?: boolean;
};

/**
 * Maps a `book_class` error to the toast: duplicates (23505) to the spec's message, the RPC's
 * refusals as worded, and anything else (network, unexpected) to `fallback`.
 */
export function bookingErrorView(error: RpcError, fallback: string = BOOKING_MESSAGES.failedToBook): BookingErrorView {
  if (error.code === '23505' || error.hint === 'already_booked') return { message: BOOKING_MESSAGES.duplicate, signInAgain: false };
  if (error.hint === 'member_not_found') return { message: BOOKING_MESSAGES.memberNotFound, signInAgain: true };
  if (error.hint === DOCUMENTS_REQUIRED) return { message: error.message, signInAgain: false, signDocuments: true };
  if (error.hint && SHOWN_AS_IS.has(error.hint)) return { message: error.message, signInAgain: error.hint === 'not_authenticated' };
  return { message: fallback, signInAgain: false };
}

/** Maps a `cancel_booking` error to the toast. */
export function cancelErrorMessage(error: RpcError): string {
  if (error.hint === 'not_permitted' || error.code === '42501') return BOOKING_MESSAGES.cancelNotPermitted;
  return BOOKING_MESSAGES.cancelFailed;
}

/** Said when the member's waitlist place turned into a booking while the page was open (the email says it too). */
export const promotedMessage = (className: string) => `A spot opened: you're booked on ${className}.`;

export const WAITLIST_MESSAGES = {
  join: 'Join Waitlist',
  joining: 'Joining...',
  leave: 'Leave Waitlist',
  leaving: 'Leaving...',
  closed: 'Waitlist closed',
  confirmLeave: 'Leave the waitlist for this class? You will lose your place.',
  joined: (position: number) => `You're on the waitlist: #${position}. We'll email you if a spot opens.`,
  /**
   * Pay-as-you-go with a saved card (decision 0081): the price is charged when a place is given; a
   * member with a balance (`balance`, formatted) has it taken from that first (decision 0108).
   */
  confirmPaidJoin: (price: string, balance: string | null = null) =>
    `Join the waitlist? If a spot opens for you, ${price} will be charged to ${balance ? `your balance (${balance} now) first, then your saved card,` : 'your saved card'} and the spot is yours. If the charge fails, the spot goes to the next person.`,
  joinedPaid: (position: number, price: string, balance: string | null = null) =>
    `You're on the waitlist: #${position}. If a spot opens for you, ${price} will be charged to ${balance ? `your balance (${balance} now) first, then your saved card` : 'your saved card'}; we'll email you.`,
  left: 'You left the waitlist',
  joinFailed: 'Could not join the waitlist. Please try again.',
  leaveFailed: 'Could not leave the waitlist. Please try again.',
} as const;

/** Why a full class's waitlist is not offered, said on the card before anyone presses anything (join_waitlist's words). */
export const WAITLIST_NOT_OFFERED: Partial<Record<string, string>> = {
  waitlist_payment_required: 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.',
};

/** "On waitlist: #1 of 3". */
export function waitlistPlace(position: number, size: number): string {
  return `On waitlist: #${position} of ${size}`;
}

/** Waitlist refusals whose message is product copy (docs/data-contract.md), shown as the server words it. */
const WAITLIST_SHOWN_AS_IS = new Set([
  'class_not_full',
  'already_waitlisted',
  'waitlist_closed',
  'waitlist_payment_required',
  'not_on_waitlist',
  'class_started',
  'class_locked',
  'class_not_found',
  DOCUMENTS_REQUIRED,
]);

/** The toast for a refused join or leave; anything unexpected gets `fallback`. */
export function waitlistErrorMessage(error: Pick<RpcError, 'code' | 'hint' | 'message'>, fallback: string): string {
  if (error.hint === 'already_booked') return BOOKING_MESSAGES.duplicate;
  return error.hint && WAITLIST_SHOWN_AS_IS.has(error.hint) ? error.message : fallback;
}
