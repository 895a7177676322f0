import { z } from 'zod';
import { studioDayKey } from '@/lib/studio-time';

/** The child form: name and date of birth required; a date of birth in the future is refused here and by the database. */
export const childFormSchema = z.object({
  name: z.string().trim().min(1, "Enter the child's name").max(200, 'Please keep the name under 200 characters'),
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the child's date of birth")
    .refine((d) => d <= studioDayKey(new Date()), 'Date of birth cannot be in the future'),
  medicalNotes: z.string().max(2000, 'Please keep the notes under 2000 characters'),
  collectedBy: z.string().max(500, 'Please keep this under 500 characters'),
});

export type ChildFormValues = z.infer<typeof childFormSchema>;

export const FAMILY_MESSAGES = {
  title: 'Family',
  intro: 'Add your children to book them into classes with you. Children do not need an email address and never sign in.',
  empty: 'No children added yet.',
  add: 'Add a child',
  saved: 'Child saved',
  removed: 'Child removed',
  saveFailed: 'Could not save. Please try again.',
  removeFailed: 'Could not remove. Please try again.',
  signed: 'Signed',
  ready: 'Waiver and health questions signed',
  toSign: 'Waiver and health questions to sign before booking',
} as const;
