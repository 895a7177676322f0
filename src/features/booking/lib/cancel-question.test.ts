import { describe, expect, it } from 'vitest';
import { cancelQuestion } from './cancel-question';
import { MY_BOOKINGS_MESSAGES } from './my-bookings-messages';

const now = new Date('2026-12-01T09:00:00Z');
const target = {
  bookingId: 'b',
  startTime: '2026-12-02T18:00:00Z',
  lateCancelFrom: '2026-12-02T06:00:00Z',
  paidByCard: false,
  confirmed: true,
  type: 'paid',
};

describe('cancelQuestion', () => {
  it('asks plainly before the late-cancel window', () => {
    expect(cancelQuestion(target, now)).toBe(MY_BOOKINGS_MESSAGES.confirmCancel);
  });

  it('says a card payment comes back when cancelled in time', () => {
    expect(cancelQuestion({ ...target, paidByCard: true }, now)).toBe(
      `${MY_BOOKINGS_MESSAGES.refundInTime}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`,
    );
  });

  it('warns that it still counts from the window on, even for a paid place', () => {
    const late = new Date('2026-12-02T06:00:00Z');
    const question = cancelQuestion({ ...target, paidByCard: true }, late);
    expect(question).toMatch(/^This class starts within 12 hours: cancelling now still counts against your plan\./);
    expect(question).not.toContain(MY_BOOKINGS_MESSAGES.refundInTime);
  });

  it('says a class the studio moved after booking is free to cancel, however close the start', () => {
    const close = new Date('2026-12-02T17:50:00Z');
    expect(cancelQuestion({ ...target, lateCancelFrom: null, paidByCard: true }, close)).toBe(
      `${MY_BOOKINGS_MESSAGES.freeAfterStudioChange}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`,
    );
  });

  it('says what a late cancellation costs by what the place used, and that a session comes back in time', () => {
    const late = new Date('2026-12-02T07:00:00Z');
    expect(cancelQuestion({ ...target, type: 'payg', paidByCard: true }, late)).toMatch(/cancelling now is not refunded\./);
    expect(cancelQuestion({ ...target, type: 'credit' }, late)).toMatch(/cancelling now still uses your personal-training session\./);
    expect(cancelQuestion({ ...target, type: 'credit' }, now)).toBe(
      `${MY_BOOKINGS_MESSAGES.sessionBackInTime}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`,
    );
  });

  it('adds the late-cancel fee and strike of the policy the booking was made under (decision 0080)', () => {
    const late = new Date('2026-12-02T06:00:00Z');
    const policies = [
      { validFrom: '2026-11-01T00:00:00Z', lateCancelFee: 5, noShowFee: null, strikeLimit: null, blockDays: null },
      { validFrom: '2026-12-01T12:00:00Z', lateCancelFee: 8, noShowFee: 10, strikeLimit: 3, blockDays: 7 },
    ];
    expect(cancelQuestion({ ...target, bookedAt: '2026-11-20T10:00:00Z' }, late, policies)).toBe(
      'This class starts within 12 hours: cancelling now still counts against your plan. A late cancellation fee of £5.00 will be charged to your saved card, or recorded as owed.' +
        `\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`,
    );
    expect(cancelQuestion({ ...target, bookedAt: '2026-12-01T13:00:00Z' }, late, policies)).toContain(
      'A late cancellation fee of £8.00 will be charged to your saved card, or recorded as owed. It counts as a strike: 3 late cancellations or no-shows within 30 days stop you booking for 7 days.',
    );
    // Booked before any policy, or cancelled in time: no fee is mentioned.
    expect(cancelQuestion({ ...target, bookedAt: '2026-10-01T10:00:00Z' }, late, policies)).not.toContain('fee');
    expect(cancelQuestion({ ...target, bookedAt: '2026-11-20T10:00:00Z' }, now, policies)).toBe(MY_BOOKINGS_MESSAGES.confirmCancel);
  });
});
