import { describe, expect, it } from 'vitest';
import type { MyBooking } from '../api/get-my-bookings';
import { cancellationNote, cancelledBookings } from './cancellations';

const booking = (id: string): MyBooking => ({
  id,
  classId: `class-${id}`,
  status: 'cancelled',
  paymentStatus: 'completed',
  holdExpiresAt: null,
  type: 'paid',
  bookedAt: '2030-03-01T10:00:00Z',
  className: `Class ${id}`,
  trainer: 'Coach Alex',
  startsAt: new Date('2030-03-04T06:00:00Z'),
  duration: 45,
  description: null,
  lateCancelFrom: null,
});

describe('cancellationNote', () => {
  it('says who cancelled and whether it counted', () => {
    expect(cancellationNote({ by: 'member', late: false, reason: null, type: 'paid' })).toBe('You cancelled in time.');
    expect(cancellationNote({ by: 'member', late: true, reason: null, type: 'paid' })).toBe(
      'You cancelled late: it counts against your plan.',
    );
    expect(cancellationNote({ by: 'studio', late: false, reason: 'the studio is closed (Hall repairs)', type: 'paid' })).toBe(
      'Cancelled by the studio: the studio is closed (Hall repairs).',
    );
    expect(cancellationNote({ by: 'studio', late: false, reason: null, type: 'paid' })).toBe('Cancelled by the studio.');
    expect(cancellationNote({ by: 'plan_ended', late: false, reason: null, type: 'paid' })).toBe('Cancelled when your plan ended.');
  });

  it("says what a member's own cancellation cost or gave back, by what the place used", () => {
    expect(cancellationNote({ by: 'member', late: true, reason: null, type: 'payg' })).toBe(
      'You cancelled late: the payment was not refunded.',
    );
    expect(cancellationNote({ by: 'member', late: true, reason: null, type: 'credit' })).toBe(
      'You cancelled late: it used your personal-training session.',
    );
    expect(cancellationNote({ by: 'member', late: false, reason: null, type: 'credit' })).toBe(
      'You cancelled in time: your personal-training session came back.',
    );
  });
});

describe('cancelledBookings', () => {
  it("keeps the database's list and adds this visit's cancellations it does not have yet, once each", () => {
    expect(cancelledBookings([booking('a'), booking('b')], [booking('b'), booking('c')]).map((b) => b.id)).toEqual(['a', 'b', 'c']);
  });
});
