import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import type { Database } from '@/lib/database.types';
import { supabase, type Tables } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';
import { londonWallClockToUtc } from '@/lib/studio-calendar';

/** A trainer's weekly window (London times) and one-off sessions: read by all, written by admins. */
export type WeeklyWindow = Tables<'trainer_availability'>;
export type OneOffSlot = Tables<'trainer_one_off_slots'>;
/** A booked coming session that withdrawn availability left standing: it stays booked until moved or cancelled. */
export type UncoveredSession = Database['public']['CompositeTypes']['uncovered_session'];
export type TrainerAvailability = {
  weekly: WeeklyWindow[];
  oneOff: OneOffSlot[];
  uncovered: UncoveredSession[];
};

export async function getAvailability(trainerId: string, now: Date = new Date()): Promise<TrainerAvailability> {
  const [weekly, oneOff, uncovered] = await Promise.all([
    supabase.from('trainer_availability').select('*').eq('trainer_id', trainerId).order('weekday').order('starts_at'),
    supabase.from('trainer_one_off_slots').select('*').eq('trainer_id', trainerId).gte('start_time', now.toISOString()).order('start_time'),
    // Removing availability removes its unbooked sessions in the database; booked ones stay and are listed here.
    supabase.rpc('admin_uncovered_sessions', { p_trainer_id: trainerId }),
  ]);
  if (weekly.error) throw weekly.error;
  if (oneOff.error) throw oneOff.error;
  if (uncovered.error) throw uncovered.error;
  return { weekly: weekly.data, oneOff: oneOff.data, uncovered: uncovered.data };
}

export const availabilityQueryOptions = (trainerId: string) =>
  queryOptions({
    queryKey: [...queryKeys.admin.trainers(), 'availability', trainerId],
    queryFn: () => getAvailability(trainerId),
  });

export const useAvailability = (trainerId: string | null) =>
  useQuery({
    ...availabilityQueryOptions(trainerId ?? ''),
    enabled: trainerId !== null,
  });

const sessionMinutes = z.coerce.number().int().min(15, 'At least 15 minutes').max(180, 'At most 180 minutes');

/** A weekly window: an ISO weekday (Monday = 1), from and to (London), sessions of so many minutes. */
export const weeklyFormSchema = z
  .object({
    weekday: z.coerce.number().int().min(1).max(7),
    startsAt: z.string().min(1, 'Start is required'),
    endsAt: z.string().min(1, 'End is required'),
    sessionMinutes,
  })
  .refine((v) => v.endsAt > v.startsAt, {
    path: ['endsAt'],
    message: 'End after the start',
  });
export type WeeklyForm = z.input<typeof weeklyFormSchema>;

/** The database's words for a one-off session it refuses (trainer_one_off_slots_check). */
export const ONE_OFF_MESSAGES = {
  past: 'That time has passed: a one-off session must be in the future',
  exists: 'This trainer already has a one-off session at that time',
} as const;

/** A one-off session: a London date and time, in the future (a past one would never be shown), and its length. */
export const oneOffFormSchema = z
  .object({
    date: z.string().min(1, 'Date is required'),
    time: z.string().min(1, 'Time is required'),
    duration: sessionMinutes,
  })
  .refine((v) => !v.date || !v.time || new Date(londonWallClockToUtc(v.date, v.time)).getTime() > Date.now(), {
    path: ['time'],
    message: ONE_OFF_MESSAGES.past,
  });
export type OneOffForm = z.input<typeof oneOffFormSchema>;

type AvailabilityWrite =
  | { kind: 'weekly'; trainerId: string; values: WeeklyForm }
  | { kind: 'one-off'; trainerId: string; values: OneOffForm }
  | { kind: 'remove-weekly' | 'remove-one-off'; id: string };

export async function writeAvailability(write: AvailabilityWrite): Promise<void> {
  if (write.kind === 'weekly') {
    const v = weeklyFormSchema.parse(write.values);
    const { error } = await supabase.from('trainer_availability').insert({
      trainer_id: write.trainerId,
      weekday: v.weekday,
      starts_at: v.startsAt,
      ends_at: v.endsAt,
      session_minutes: v.sessionMinutes,
    });
    if (error) throw error;
  } else if (write.kind === 'one-off') {
    const v = oneOffFormSchema.parse(write.values);
    const startTime = londonWallClockToUtc(v.date, v.time);
    const { error } = await supabase.from('trainer_one_off_slots').insert({
      trainer_id: write.trainerId,
      start_time: startTime,
      duration: v.duration,
    });
    // Two admins adding the same session at once meet the unique constraint: the same words.
    if (error?.code === '23505') throw new Error(ONE_OFF_MESSAGES.exists);
    if (error) throw error;
  } else {
    const table = write.kind === 'remove-weekly' ? 'trainer_availability' : 'trainer_one_off_slots';
    const { error } = await supabase.from(table).delete().eq('id', write.id);
    if (error) throw error;
  }
}

export function useWriteAvailability() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: writeAvailability,
    onSuccess: () => invalidateAfterAdminWrite(queryClient),
  });
}

/** Makes the coming weeks' One-to-One sessions from what is published (the hourly jobs do too). Returns how many are new. */
export async function publishSessions(): Promise<number> {
  const { data, error } = await supabase.rpc('publish_one_to_one_slots');
  if (error) throw error;
  return data;
}

export function usePublishSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishSessions,
    onSuccess: () => invalidateAfterAdminWrite(queryClient),
  });
}
