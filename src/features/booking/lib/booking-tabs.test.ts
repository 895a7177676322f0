import { describe, expect, it } from 'vitest';
import type { MyBooking } from '../api/get-my-bookings';
import { splitBookings } from './booking-tabs';

const now = new Date('2025-11-10T10:00:00Z');
function booking(id: string, startsAt: string, status: MyBooking['status'] = 'confirmed'): MyBooking {
  return {
    id,
    classId: `c-${id}`,
    status,
    paymentStatus: 'completed',
    type: 'paid',
    bookedAt: '2025-11-01T00:00:00Z',
    className: id,
    trainer: 'Coach Alex',
    startsAt: new Date(startsAt),
    duration: 45,
    description: null,
    lateCancelFrom: null,
    holdExpiresAt: null,
  };
}

describe('splitBookings', () => {
  it('counts a class starting exactly now as upcoming and one a millisecond ago as past', () => {
    const tabs = splitBookings([booking('now', '2025-11-10T10:00:00.000Z'), booking('gone', '2025-11-10T09:59:59.999Z')], now);
    expect(tabs.upcoming.map((b) => b.id)).toEqual(['now']);
    expect(tabs.past.map((b) => b.id)).toEqual(['gone']);
  });

  it('puts cancelled bookings only in Cancelled, whatever their date', () => {
    const tabs = splitBookings([booking('a', '2025-12-01T10:00:00Z', 'cancelled'), booking('b', '2025-10-01T10:00:00Z', 'cancelled')], now);
    expect(tabs.upcoming).toEqual([]);
    expect(tabs.past).toEqual([]);
    expect(tabs.cancelled.map((b) => b.id)).toEqual(['a', 'b']);
  });

  it('orders upcoming soonest first and past most recent first', () => {
    const tabs = splitBookings(
      [
        booking('later', '2025-11-20T10:00:00Z'),
        booking('soon', '2025-11-11T10:00:00Z'),
        booking('old', '2025-10-01T10:00:00Z'),
        booking('recent', '2025-11-09T10:00:00Z'),
      ],
      now,
    );
    expect(tabs.upcoming.map((b) => b.id)).toEqual(['soon', 'later']);
    expect(tabs.past.map((b) => b.id)).toEqual(['recent', 'old']);
  });
});
