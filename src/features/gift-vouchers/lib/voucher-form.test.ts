import { describe, expect, it } from 'vitest';
import { giftVoucherSchema, latestDeliveryDate, londonDate } from './voucher-form';

const limits = { minAmount: 10, maxAmount: 500 };
const valid = {
  choice: 'amount',
  amount: '50',
  recipientName: 'Robin',
  recipientEmail: 'robin@example.com',
  message: 'Happy birthday',
  deliverOn: '2026-12-24',
  buyerName: 'Sam',
  buyerEmail: 'sam@example.com',
};

describe('the gift voucher form', () => {
  const schema = giftVoucherSchema(limits, '2026-11-28', true);
  const errors = (v: Partial<typeof valid>) => {
    const r = schema.safeParse({ ...valid, ...v });
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts whole pounds within the limits, or a package', () => {
    expect(errors({})).toEqual({});
    expect(errors({ choice: 'dropin', amount: '' })).toEqual({});
  });

  it('refuses pence, amounts outside the limits, dates in the past or over a year ahead, and long messages', () => {
    const amount = 'A whole number of pounds from £10 to £500';
    expect(errors({ amount: '12.50' })).toEqual({ amount });
    expect(errors({ amount: '5' })).toEqual({ amount });
    expect(errors({ amount: '501' })).toEqual({ amount });
    expect(errors({ deliverOn: '2026-11-27' })).toEqual({ deliverOn: 'The delivery date is today or later' });
    expect(errors({ deliverOn: '2027-11-29' })).toEqual({ deliverOn: 'The delivery date is at most a year ahead' });
    expect(errors({ message: 'x'.repeat(501) })).toEqual({ message: 'Up to 500 characters' });
    expect(errors({ buyerEmail: 'nope' })).toEqual({ buyerEmail: 'Enter your email address, for the receipt' });
  });

  it('asks a member for neither their name nor their email', () => {
    expect(giftVoucherSchema(limits, '2026-11-28', false).safeParse({ ...valid, buyerName: '', buyerEmail: '' }).success).toBe(true);
  });

  it('counts days in London', () => {
    expect(londonDate(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(latestDeliveryDate('2026-11-28')).toBe('2027-11-28');
  });
});
