import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ClassRow } from '@/lib/supabase';
import {
  CLASS_LIMITS,
  CLASS_TYPES,
  UNLOCK_UNITS,
  classPayload,
  classPayloads,
  maxCapacityFor,
  startTimesFor,
  type ClassFormValues,
  type ClassInsert,
} from '../lib/class-form';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';
import { ADMIN_MESSAGES } from '../lib/messages';
import { MAX_OCCURRENCES, REPEAT_OPTIONS } from '../lib/repeat-occurrences';
import { londonWallClockToUtc } from '@/lib/studio-calendar';
import { supabase } from '@/lib/supabase';

const isWholeNumber = (value: string) => /^\d+$/.test(value.trim());
/** Money in pounds and pence: 0 or more in 0.01 steps. */
const isPrice = (value: string) => /^\d+(\.\d{1,2})?$/.test(value.trim());
const isHttpUrl = (value: string) => z.url({ protocol: /^https?$/ }).safeParse(value).success;

/**
 * The Add / Edit Class form (spec section 5), shared by the form (zodResolver) and the save: the
 * inputs are strings as the browser gives them, each field's first broken rule is its message.
 * An edit has no repeat. Capacity depends on the type, repeat-until on the date. A new class
 * starts after `now` (the database refuses one in the past too; an edit that moves a class into
 * the past is refused there, in the same words).
 */
export function classFormSchema(editing: boolean, now: Date = new Date()) {
  return z
    .object({
      name: z.string(),
      description: z.string(),
      duration: z.string(),
      date: z.string(),
      time: z.string(),
      trainer: z.string(),
      type: z.string(),
      capacity: z.string(),
      pricePayg: z.string(),
      minAge: z.string(),
      maxAge: z.string(),
      checkoutUrl: z.string(),
      meetingPointId: z.string(),
      isPremium: z.boolean(),
      unlockAmount: z.string(),
      unlockUnit: z.enum(UNLOCK_UNITS),
      repeat: z.enum(REPEAT_OPTIONS),
      repeatUntil: z.string(),
    })
    .superRefine((v, ctx) => {
      const fail = (path: keyof ClassFormValues, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!v.name.trim()) fail('name', 'Name is required');
      if (!v.description.trim()) fail('description', 'Description is required');
      const duration = Number(v.duration);
      if (!isWholeNumber(v.duration) || duration < CLASS_LIMITS.durationMin || duration > CLASS_LIMITS.durationMax) {
        fail('duration', `Duration must be between ${CLASS_LIMITS.durationMin} and ${CLASS_LIMITS.durationMax} minutes`);
      }
      if (!v.date) fail('date', 'Date is required');
      if (!v.time) fail('time', 'Time is required');
      if (
        !editing &&
        /^\d{4}-\d{2}-\d{2}$/.test(v.date) &&
        /^\d{2}:\d{2}/.test(v.time) &&
        londonWallClockToUtc(v.date, v.time) <= now.toISOString()
      ) {
        fail('date', ADMIN_MESSAGES.classInPast);
      }
      if (!v.trainer.trim()) fail('trainer', 'Trainer is required');
      if (!(CLASS_TYPES as readonly string[]).includes(v.type)) fail('type', 'Type is required');
      const capacity = Number(v.capacity);
      const maxCapacity = maxCapacityFor(v.type);
      if (!isWholeNumber(v.capacity) || capacity < CLASS_LIMITS.capacityMin || capacity > maxCapacity) {
        fail(
          'capacity',
          v.type === 'One-to-One'
            ? 'A One-to-One class has a capacity of 1'
            : `Capacity must be between ${CLASS_LIMITS.capacityMin} and ${maxCapacity}`,
        );
      }
      if (v.pricePayg.trim() && !isPrice(v.pricePayg)) fail('pricePayg', 'Price must be 0 or more, in steps of 0.01');
      const age = (value: string) => !value.trim() || (isWholeNumber(value) && Number(value) <= 99);
      if (!age(v.minAge)) fail('minAge', 'Enter a whole number of years from 0 to 99');
      if (!age(v.maxAge)) fail('maxAge', 'Enter a whole number of years from 0 to 99');
      if (v.minAge.trim() && v.maxAge.trim() && Number(v.minAge) > Number(v.maxAge))
        fail('maxAge', 'Must not be less than the youngest age');
      if (v.checkoutUrl.trim() && !isHttpUrl(v.checkoutUrl.trim())) fail('checkoutUrl', 'Enter a full web address (https://...)');
      if (v.isPremium && (!isWholeNumber(v.unlockAmount) || Number(v.unlockAmount) < 1))
        fail('unlockAmount', 'Enter a whole number of 1 or more');
      if (!editing && v.repeat !== 'none') {
        if (!v.repeatUntil) fail('repeatUntil', 'Repeat until is required');
        else if (v.date && v.repeatUntil < v.date) fail('repeatUntil', 'Repeat until must not be before the start date');
        else if (v.date && v.time && startTimesFor(v).length > MAX_OCCURRENCES) {
          fail('repeatUntil', `That would create more than ${MAX_OCCURRENCES} classes; choose an earlier end date`);
        }
      }
    });
}

/** Creates every occurrence of a class in ONE request (a repeating class is a list of rows). */
export async function createClasses(rows: ClassInsert[]): Promise<number> {
  const { data, error } = await supabase.from('classes').insert(rows).select('id');
  if (error) throw error;
  return data.length;
}

/** Updates one class by id; a row hidden by the database's rules counts as a failure. */
export async function updateClass(id: string, row: ClassInsert): Promise<void> {
  const { data, error } = await supabase.from('classes').update(row).eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Class not updated');
}

export type SaveClassInput = { editing: ClassRow | null; values: ClassFormValues };

/**
 * Saves the form: the values are parsed by the same schema the form used, then an edit updates
 * its class and a new class inserts one row per occurrence. Resolves to how many were created
 * (0 for an edit).
 */
export async function saveClass({ editing, values }: SaveClassInput): Promise<number> {
  const parsed = classFormSchema(editing !== null).parse(values);
  if (editing) {
    await updateClass(editing.id, classPayload(parsed, londonWallClockToUtc(parsed.date, parsed.time)));
    return 0;
  }
  return createClasses(classPayloads(parsed));
}

/** The database's refusals of a class (their hints), and the form field each is about. */
const REFUSAL_FIELDS: Record<string, keyof ClassFormValues> = { class_in_past: 'date', capacity_below_bookings: 'capacity' };

/**
 * The reason a save failed, in the server's words when it refused the class for one (the capacity
 * message names how many are booked), else the spec's 'Failed to save class'.
 */
export function classSaveRefusal(error: unknown): { message: string; field?: keyof ClassFormValues } {
  const hint = error && typeof error === 'object' && 'hint' in error ? error.hint : null;
  const message = error instanceof Object && 'message' in error && typeof error.message === 'string' ? error.message : '';
  const field = typeof hint === 'string' ? REFUSAL_FIELDS[hint] : undefined;
  if (field && message) return { message, field };
  return { message: ADMIN_MESSAGES.classSaveFailed };
}

export function useSaveClass() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveClass, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
