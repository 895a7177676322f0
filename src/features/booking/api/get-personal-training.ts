import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import type { Tables } from '@/lib/database.types';

/** A trainer as members see them: name, short bio and photo. */
export type TrainerCard = Pick<Tables<'trainers'>, 'id' | 'name' | 'bio' | 'photo_url'>;

export async function getTrainers(): Promise<TrainerCard[]> {
  const { data, error } = await (await loadSupabase()).from('trainers').select('id, name, bio, photo_url').order('name');
  if (error) throw error;
  return data;
}

export const trainersQueryOptions = () => queryOptions({ queryKey: queryKeys.trainers.all, queryFn: getTrainers });

export const useTrainerCards = () => useQuery(trainersQueryOptions());

/**
 * A One-to-One session of the next four weeks with what booking it would use for the caller
 * (`personal_training_slots`): the credit that expires first and when, or the price and why no
 * credit. The SQL always sets the session's own facts; the credit fields are null without one.
 */
export type TrainingSlot = CompositeRow<
  'training_slot',
  'id' | 'trainer_id' | 'trainer' | 'start_time' | 'duration' | 'price' | 'spots_left'
>;

/** How far ahead a member picks a time. */
export const TRAINING_WEEKS = 4;

export async function getTrainingSlots(trainerId: string): Promise<TrainingSlot[]> {
  const { data, error } = await (
    await loadSupabase()
  ).rpc('personal_training_slots', { p_trainer_id: trainerId, p_days: TRAINING_WEEKS * 7 });
  if (error) throw error;
  return compositeRows<'training_slot', 'id' | 'trainer_id' | 'trainer' | 'start_time' | 'duration' | 'price' | 'spots_left'>(data);
}

export const trainingSlotsQueryOptions = (memberId: string, trainerId: string) =>
  queryOptions({ queryKey: queryKeys.credits.trainingSlots(memberId, trainerId), queryFn: () => getTrainingSlots(trainerId) });

export const useTrainingSlots = (memberId: string | null, trainerId: string | null) =>
  useQuery({ ...trainingSlotsQueryOptions(memberId ?? '', trainerId ?? ''), enabled: memberId !== null && trainerId !== null });
