import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** A row of `public.meeting_points` (decision 0055): readable by all, written by admins (row policies). */
export type MeetingPoint = Tables<'meeting_points'>;

export async function getMeetingPoints(): Promise<MeetingPoint[]> {
  const { data, error } = await supabase.from('meeting_points').select('id, name, address, directions, map_url, created_at').order('name');
  if (error) throw error;
  return data;
}

export const meetingPointsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.meetingPoints(), queryFn: getMeetingPoints });

export const useMeetingPoints = () => useQuery(meetingPointsQueryOptions());

/** The meeting point form: the database's limits (name 1–120, address 1–300, directions ≤ 600, an https map link). */
export const meetingPointFormSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters'),
  address: z.string().trim().min(1, 'Address is required').max(300, 'At most 300 characters'),
  directions: z.string().trim().max(600, 'At most 600 characters'),
  mapUrl: z
    .string()
    .trim()
    .refine((v) => v === '' || /^https:\/\/\S+$/.test(v), 'A web address starting https://'),
});
export type MeetingPointForm = z.infer<typeof meetingPointFormSchema>;

/** Adds a meeting point (no id) or edits one; classes naming it say the new words from then on. */
export async function saveMeetingPoint({ id, ...input }: MeetingPointForm & { id: string | null }): Promise<void> {
  const { name, address, directions, mapUrl } = meetingPointFormSchema.parse(input);
  const row = { name, address, directions, map_url: mapUrl === '' ? null : mapUrl };
  const { error } = id ? await supabase.from('meeting_points').update(row).eq('id', id) : await supabase.from('meeting_points').insert(row);
  if (error) throw error;
}

/** Why a meeting point write was refused, in words (the database's unique name and foreign keys). */
export function meetingPointRefusal(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === '23505') return 'A meeting point already has that name';
  if (code === '23503') return 'Classes or the timetable template meet there: give them another place first';
  return 'The meeting point could not be saved. Please try again.';
}

export async function deleteMeetingPoint(id: string): Promise<void> {
  const { error } = await supabase.from('meeting_points').delete().eq('id', id);
  if (error) throw error;
}

export function useSaveMeetingPoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveMeetingPoint, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}

export function useDeleteMeetingPoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMeetingPoint, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}

/** Each template slot's meeting point (`timetable_slot_meeting_points`); a slot absent meets in the hall. */
export async function getSlotMeetingPoints(): Promise<Record<string, string>> {
  const { data, error } = await supabase.from('timetable_slot_meeting_points').select('slot, meeting_point_id');
  if (error) throw error;
  return Object.fromEntries(data.map((r) => [r.slot, r.meeting_point_id]));
}

export const useSlotMeetingPoints = () => useQuery({ queryKey: queryKeys.admin.slotMeetingPoints(), queryFn: getSlotMeetingPoints });

/** Sets where a template slot's generated classes meet; null = the hall. */
export async function setSlotMeetingPoint({ slot, meetingPointId }: { slot: string; meetingPointId: string | null }): Promise<void> {
  const { error } = meetingPointId
    ? await supabase.from('timetable_slot_meeting_points').upsert({ slot, meeting_point_id: meetingPointId }, { onConflict: 'slot' })
    : await supabase.from('timetable_slot_meeting_points').delete().eq('slot', slot);
  if (error) throw error;
}

export function useSetSlotMeetingPoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setSlotMeetingPoint, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
