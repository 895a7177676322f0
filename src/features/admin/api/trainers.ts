import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** A row of `public.trainers`: readable by all, written by admins (row policies). */
export type Trainer = Tables<'trainers'>;

export async function getTrainers(): Promise<Trainer[]> {
  const { data, error } = await supabase.from('trainers').select('id, name, bio, photo_url, created_at').order('name');
  if (error) throw error;
  return data;
}

export const trainersQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.trainers(), queryFn: getTrainers });

export const useTrainers = () => useQuery(trainersQueryOptions());

/** The trainer form: the database's limits (name 1–200, bio at most 600, photo an http(s) or site path). */
export const trainerFormSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200, 'At most 200 characters'),
  bio: z.string().trim().max(600, 'At most 600 characters'),
  photoUrl: z
    .string()
    .trim()
    .refine((v) => v === '' || /^(https?:\/\/|\/)/.test(v), 'A web address (https://…) or a path on this site (/…)'),
});
export type TrainerForm = z.infer<typeof trainerFormSchema>;

/** Adds a trainer (no id) or edits one; renaming a trainer renames their classes (the database does). */
export async function saveTrainer({ id, ...input }: TrainerForm & { id: string | null }): Promise<void> {
  const { name, bio, photoUrl } = trainerFormSchema.parse(input);
  const row = { name, bio, photo_url: photoUrl === '' ? null : photoUrl };
  const { error } = id ? await supabase.from('trainers').update(row).eq('id', id) : await supabase.from('trainers').insert(row);
  if (error) throw error;
}

export function useSaveTrainer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveTrainer, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
