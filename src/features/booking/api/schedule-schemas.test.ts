import { describe, expect, it } from 'vitest';
import { makeScheduleClass } from '@/testing/schedule-mocks';
import { checkedBookClassInput, isClassId } from './book-class';
import * as v from 'valibot';
import { scheduleClassSchema } from './get-class-schedule';

// A visitor's schedule validates with valibot (zod's core is 14 KB gzip of a 120 KB
// budget; decision 0013); it must refuse what zod refused. The booking input is checked by hand (zod stays off the member's first screen).
describe('booking request and response schemas', () => {
  it('reads a class row, turning the payg price PostgREST sends as text into a number', () => {
    const row = { ...makeScheduleClass(), price_payg: '10.00' };
    expect(v.parse(scheduleClassSchema, row).price_payg).toBe(10);
  });

  it('refuses a class row with a missing or ill-typed fact instead of rendering it', () => {
    expect(() => v.parse(scheduleClassSchema, { ...makeScheduleClass(), price_payg: 'ten' })).toThrow();
    expect(() => v.parse(scheduleClassSchema, { ...makeScheduleClass(), spots_left: null })).toThrow();
    const { spots_left: _dropped, ...missing } = makeScheduleClass();
    expect(() => v.parse(scheduleClassSchema, missing)).toThrow();
    expect(() => v.parse(scheduleClassSchema, { ...makeScheduleClass(), booking_type: 'free' })).toThrow();
    expect(() => v.parse(scheduleClassSchema, { ...makeScheduleClass(), is_premium: 'yes' })).toThrow();
  });

  it('sends only a uuid class id and a known booking type', () => {
    const id = '0b7e6a9c-3f1d-4c2e-9a5b-8d6f4e2c1a0b';
    expect(isClassId(id)).toBe(true);
    expect(isClassId("1' or 1=1")).toBe(false);
    expect(checkedBookClassInput({ classId: id, bookingType: null })).toEqual({ classId: id, bookingType: null });
    // @ts-expect-error: a booking type the database does not know
    expect(() => checkedBookClassInput({ classId: id, bookingType: 'free' })).toThrow();
  });
});
