import { describe, expect, it } from 'vitest';
import { makeScheduleClass } from '@/testing/schedule-mocks';
import { bookingTypeNote, bookingTypeOptions } from './booking-type';

const usage = { month_start: '2026-11-01T00:00:00Z', allowance: 12, used: 12, remaining: 0, bookings: 12, late_cancellations: 0 };

describe('booking type options', () => {
  it("words the server's refusal of each type and never closes pay-as-you-go", () => {
    const cls = makeScheduleClass({
      paid_refusal: 'allowance_used',
      trial_refusal: 'trial_unavailable',
      booking_type: 'payg',
      price_payg: 10,
    });
    expect(bookingTypeOptions(cls, usage).map((o) => [o.label, o.unavailable])).toEqual([
      ['Member', "You've used your 12 classes this month"],
      ['Pay-as-you-go', null],
    ]);
    expect(bookingTypeNote(cls, 'payg', usage)).toBe("You've used your 12 classes this month: this one is £10.00.");
    const payg = { ...usage, allowance: null, remaining: null };
    expect(
      bookingTypeOptions(makeScheduleClass({ paid_refusal: 'plan_required', trial_refusal: 'trial_unavailable' }), payg).map(
        (o) => o.label,
      ),
    ).toEqual(['Member', 'Free Trial', 'Pay-as-you-go']);
  });

  it('never offers the Free Trial to a member on a plan, only to newcomers', () => {
    const cls = makeScheduleClass({ paid_refusal: null, trial_refusal: 'trial_unavailable', booking_type: 'paid' });
    expect(bookingTypeOptions(cls, { ...usage, used: 2, remaining: 10 }).map((o) => o.label)).toEqual(['Member', 'Pay-as-you-go']);
  });

  it('says the price of a pay-as-you-go class and nothing for a free one', () => {
    expect(bookingTypeNote(makeScheduleClass({ price_payg: 8.5 }), 'payg', undefined)).toBe(
      'This class is £8.50, paid by card at checkout.',
    );
    expect(bookingTypeNote(makeScheduleClass({ price_payg: null }), 'payg', undefined)).toBeNull();
    expect(bookingTypeNote(makeScheduleClass({ price_payg: 10 }), 'paid', undefined)).toBeNull();
  });

  it('a One-to-One offers a credit or paying, never the plan or the trial', () => {
    const session = makeScheduleClass({ type: 'One-to-One', price_payg: 115, booking_type: 'paid' });
    const credit = { credit_id: 'c', expires_at: '2027-01-03T12:00:00Z', refusal: null, message: null };
    expect(bookingTypeOptions(session, usage, credit).map((o) => [o.value, o.unavailable])).toEqual([
      ['credit', null],
      ['payg', null],
    ]);
    expect(bookingTypeNote(session, 'credit', usage, credit)).toBe('Uses 1 personal-training session, expires Sun 3 Jan.');
    expect(bookingTypeNote(session, 'payg', usage, credit)).toBe('This session is £115.00, paid by card at checkout.');
    const none = {
      credit_id: null,
      expires_at: null,
      refusal: 'no_credit',
      message: 'You have no personal-training session to use for this class: it is £115.00.',
    };
    expect(bookingTypeOptions(session, usage, none)[0]!.unavailable).toBe('You have no personal-training sessions to use');
  });
});
