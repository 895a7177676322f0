import { describe, expect, it } from 'vitest';
import type { BookClassResult } from '../api/book-class';
import { BOOKING_MESSAGES, bookedMessage, bookingErrorView, cancelErrorMessage } from './booking-messages';

const base: BookClassResult = {
  status: 'booked',
  booking_id: 'b1',
  class_id: 'c1',
  booking_type: 'paid',
  payment_status: 'completed',
  needs_payment: false,
  price_payg: 10,
  previous_tier: 'standard',
  tier: 'standard',
  trial_used: true,
  spots_left: 5,
};

describe('bookedMessage', () => {
  it('says booked for member bookings', () => {
    expect(bookedMessage(base)).toBe('Class booked successfully!');
  });
  it('announces the move to Pay-As-You-Go when a trial member books', () => {
    expect(bookedMessage({ ...base, booking_type: 'trial', previous_tier: 'trial', tier: 'payg' })).toBe(
      'Free trial class booked! You are now on Pay-As-You-Go.',
    );
  });
  it('says the trial class is free for a payg member using their trial', () => {
    expect(bookedMessage({ ...base, booking_type: 'trial', previous_tier: 'payg', tier: 'payg' })).toBe('Trial class booked for free!');
  });
});

describe('bookingErrorView', () => {
  const err = (code: string, message: string, hint = '') => ({ code, message, hint, details: '' });
  it('maps a duplicate (23505) to the spec message', () => {
    expect(bookingErrorView(err('23505', 'You have already booked this class', 'already_booked')).message).toBe(
      "You've already booked this class.",
    );
    expect(bookingErrorView(err('23505', 'duplicate key value violates unique constraint')).message).toBe(
      "You've already booked this class.",
    );
  });
  it('shows the server refusal as worded', () => {
    expect(bookingErrorView(err('P0001', 'This class is fully booked', 'class_full'))).toEqual({
      message: 'This class is fully booked',
      signInAgain: false,
    });
    expect(bookingErrorView(err('P0001', 'This premium class opens for booking on Tue 7 Jan, 18:00', 'class_locked')).message).toBe(
      'This premium class opens for booking on Tue 7 Jan, 18:00',
    );
    expect(bookingErrorView(err('P0001', 'Your free trial has already been used', 'trial_unavailable')).message).toBe(
      'Your free trial has already been used',
    );
  });
  it("sends a member without the current documents to sign them, with the database's words", () => {
    const message = 'Before your first class, please read and sign our terms and waiver and answer the health questions';
    expect(bookingErrorView(err('P0001', message, 'documents_required'))).toEqual({ message, signInAgain: false, signDocuments: true });
  });
  it('sends a missing member back to sign in', () => {
    expect(bookingErrorView(err('P0002', 'Member not found. Please sign in again.', 'member_not_found'))).toEqual({
      message: 'Member not found. Please sign in again.',
      signInAgain: true,
    });
  });
  it('falls back for unknown errors, never leaking internals', () => {
    expect(bookingErrorView(err('', 'TypeError: Failed to fetch')).message).toBe('Failed to book class');
    expect(bookingErrorView(err('XX000', 'internal'), BOOKING_MESSAGES.formFailed).message).toBe(
      'Failed to complete booking. Please try again.',
    );
  });
});

describe('cancelErrorMessage', () => {
  it('maps permission refusals and other failures', () => {
    expect(cancelErrorMessage({ code: '42501', message: 'x', hint: 'not_permitted', details: '' })).toBe(
      'Could not cancel this booking (permission).',
    );
    expect(cancelErrorMessage({ code: '', message: 'Failed to fetch', hint: '', details: '' })).toBe('Failed to cancel booking');
  });
});
