import { describe, expect, it } from 'vitest';
import { cancellingCountsNow, formatWindow, freeCancellationText, lateCancelWarning } from './late-cancel';

const H = 3_600_000;
const start = '2030-01-02T10:00:00.000Z';
const from = new Date(Date.parse(start) - 12 * H).toISOString();

// Whether a cancellation counts is the server's instant compared with the clock; the database
// test (supabase/tests/booking-facts-api.test.ts) runs this beside cancel_booking itself.
describe('late cancellation, from the server’s instant', () => {
  it('counts from exactly late_cancel_from, not a millisecond earlier, and never for a hold', () => {
    expect(cancellingCountsNow({ late_cancel_from: from }, new Date(from))).toBe(true);
    expect(cancellingCountsNow({ late_cancel_from: from }, new Date(Date.parse(from) - 1))).toBe(false);
    expect(cancellingCountsNow({ late_cancel_from: null }, new Date(start))).toBe(false);
  });

  it('words the window in its largest whole unit', () => {
    expect(formatWindow(24 * H)).toBe('1 day');
    expect(formatWindow(H)).toBe('1 hour');
    expect(formatWindow(1.5 * H)).toBe('90 minutes');
    expect(freeCancellationText({ start_time: start, late_cancel_from: from })).toBe('Free cancellation up to 12 hours before the start.');
    expect(lateCancelWarning({ start_time: start, late_cancel_from: from }, 'paid')).toBe(
      'This class starts within 12 hours: cancelling now still counts against your plan.',
    );
    // A pay-as-you-go member has no plan: what a late cancel costs them is the payment.
    expect(lateCancelWarning({ start_time: start, late_cancel_from: from }, 'payg')).toBe(
      'This class starts within 12 hours: cancelling now is not refunded.',
    );
  });
});
