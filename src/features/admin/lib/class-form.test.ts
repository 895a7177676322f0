import { describe, expect, it } from 'vitest';
import { classFormSchema } from '../api/save-classes';
import { classPayloads, classToFormValues, emptyClassForm, type ClassFormValues } from './class-form';

/** The form's messages per field, as zodResolver hands them to the form. */
function validateClassForm(values: ClassFormValues, editing: boolean): Partial<Record<keyof ClassFormValues, string>> {
  const result = classFormSchema(editing, NOW).safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
}

/** The form's clock: the valid class below is 5 days ahead of it. */
const NOW = new Date('2026-07-01T09:00:00Z');

const valid: ClassFormValues = {
  ...emptyClassForm('Coach Alex'),
  name: 'Boxing',
  description: 'Pads and bags',
  date: '2026-07-06',
  time: '18:30',
};

describe('classFormSchema', () => {
  it('accepts a complete form with the defaults', () => {
    expect(emptyClassForm('Coach Alex')).toMatchObject({ duration: '45', capacity: '10', type: 'Group', repeat: 'none' });
    expect(validateClassForm(valid, false)).toEqual({});
  });

  it('requires name, description, date, time and trainer', () => {
    const errors = validateClassForm({ ...valid, name: ' ', description: '', date: '', time: '', trainer: '' }, false);
    expect(Object.keys(errors).sort()).toEqual(['date', 'description', 'name', 'time', 'trainer']);
  });

  it('refuses a new class that starts in the past (London time), and lets an edit keep its date', () => {
    // 10:30 in London on 1 July is 09:30 UTC: still ahead of NOW; 09:30 London (08:30 UTC) is not.
    expect(validateClassForm({ ...valid, date: '2026-07-01', time: '10:30' }, false)).toEqual({});
    expect(validateClassForm({ ...valid, date: '2026-07-01', time: '09:30' }, false).date).toBe('The class must start in the future');
    expect(validateClassForm({ ...valid, date: '2026-06-30' }, false).date).toBe('The class must start in the future');
    expect(validateClassForm({ ...valid, date: '2026-06-30' }, true)).toEqual({});
  });

  it('keeps duration within 15 to 180 minutes', () => {
    expect(validateClassForm({ ...valid, duration: '14' }, false).duration).toBe('Duration must be between 15 and 180 minutes');
    expect(validateClassForm({ ...valid, duration: '181' }, false).duration).toBeDefined();
    expect(validateClassForm({ ...valid, duration: '15' }, false).duration).toBeUndefined();
    expect(validateClassForm({ ...valid, duration: '180' }, false).duration).toBeUndefined();
  });

  it('keeps capacity within 1 to 50, and 1 for One-to-One', () => {
    expect(validateClassForm({ ...valid, capacity: '0' }, false).capacity).toBe('Capacity must be between 1 and 50');
    expect(validateClassForm({ ...valid, capacity: '51' }, false).capacity).toBeDefined();
    expect(validateClassForm({ ...valid, capacity: '50' }, false).capacity).toBeUndefined();
    expect(validateClassForm({ ...valid, type: 'One-to-One', capacity: '2' }, false).capacity).toBe(
      'A One-to-One class has a capacity of 1',
    );
    expect(validateClassForm({ ...valid, type: 'One-to-One', capacity: '1' }, false).capacity).toBeUndefined();
  });

  it('accepts a price of 0 or more in pence', () => {
    expect(validateClassForm({ ...valid, pricePayg: '-1' }, false).pricePayg).toBeDefined();
    expect(validateClassForm({ ...valid, pricePayg: '9.999' }, false).pricePayg).toBeDefined();
    expect(validateClassForm({ ...valid, pricePayg: '0' }, false).pricePayg).toBeUndefined();
    expect(validateClassForm({ ...valid, pricePayg: '12.50' }, false).pricePayg).toBeUndefined();
  });

  it('refuses a repeat that ends before the start date, and allows the same day', () => {
    expect(validateClassForm({ ...valid, repeat: 'weekly', repeatUntil: '2026-07-05' }, false).repeatUntil).toBe(
      'Repeat until must not be before the start date',
    );
    expect(validateClassForm({ ...valid, repeat: 'weekly', repeatUntil: '' }, false).repeatUntil).toBe('Repeat until is required');
    expect(validateClassForm({ ...valid, repeat: 'weekly', repeatUntil: '2026-07-06' }, false)).toEqual({});
  });

  it('refuses a repeat that would create an unreasonable number of classes', () => {
    expect(validateClassForm({ ...valid, repeat: 'daily', repeatUntil: '2028-07-06' }, false).repeatUntil).toMatch(/more than 366 classes/);
  });
});

describe('classPayloads', () => {
  it('builds the payload with London times, a null empty price and the unlock window', () => {
    const [row, ...rest] = classPayloads({ ...valid, pricePayg: '', isPremium: true, unlockAmount: '1', unlockUnit: 'days' });
    expect(rest).toEqual([]);
    expect(row).toEqual({
      name: 'Boxing',
      description: 'Pads and bags',
      duration: 45,
      start_time: '2026-07-06T17:30:00.000Z',
      trainer: 'Coach Alex',
      type: 'Group',
      capacity: 10,
      price_payg: null,
      min_age: null,
      max_age: null,
      checkout_url: null,
      meeting_point_id: null,
      is_premium: true,
      unlock_for_standard: '1 day',
    });
  });

  it('makes one row per weekly occurrence', () => {
    const rows = classPayloads({ ...valid, pricePayg: '7.5', repeat: 'weekly', repeatUntil: '2026-07-27' });
    expect(rows.map((r) => r.start_time)).toEqual([
      '2026-07-06T17:30:00.000Z',
      '2026-07-13T17:30:00.000Z',
      '2026-07-20T17:30:00.000Z',
      '2026-07-27T17:30:00.000Z',
    ]);
    expect(rows.every((r) => r.price_payg === 7.5 && r.unlock_for_standard === '3 days')).toBe(true);
  });

  it('round-trips a stored class into the form', () => {
    const values = classToFormValues({
      id: 'c1',
      name: 'Yoga',
      description: null,
      duration: 60,
      start_time: '2026-01-10T09:15:00+00:00',
      trainer: 'Tina',
      trainer_id: 't1',
      type: 'Group',
      capacity: 8,
      current_bookings: 2,
      spots_left: 6,
      is_premium: true,
      unlock_for_standard: '12 hours',
      price_payg: 10,
      checkout_url: null,
      created_at: '2025-12-01T00:00:00Z',
      waitlist_closes_before: '02:00:00',
      late_cancel_window: '12:00:00',
      min_age: null,
      max_age: null,
      studio_changed_at: null,
      template_slot: null,
      template_start: null,
      meeting_point_id: null,
    });
    expect(values).toMatchObject({
      date: '2026-01-10',
      time: '09:15',
      description: '',
      pricePayg: '10',
      unlockAmount: '12',
      unlockUnit: 'hours',
    });
  });
});
