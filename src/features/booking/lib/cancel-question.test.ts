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
});
