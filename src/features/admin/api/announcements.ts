import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Database, Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { londonWallClockToUtc } from '@/lib/studio-calendar';
import { supabase } from '@/lib/supabase';

/**
 * Announcements (decision 0090): an admin writes to a segment of the members; the database says
 * how many it would reach by which channel (the same list the sending job uses), sends it at once
 * or at its time, and records what was queued.
 */
export type Announcement = Tables<'announcements'>;
export type AnnouncementPreview = Database['public']['CompositeTypes']['announcement_preview'];

export const SEGMENTS = {
  active: 'All active members',
  plan: 'Members on a plan',
  class: "A class's attendees",
  lapsed: 'Lapsed within a number of days',
  trial_ended: 'Free trial ended without a plan',
  consent: 'Everyone who said yes to news and offers',
} as const;

export type Segment = keyof typeof SEGMENTS;

export const KINDS = {
  announcement: 'Studio announcement (everyone it concerns)',
  marketing_announcement: 'News and offers (only members who said yes)',
} as const;

export const announcementSchema = z
  .object({
    type: z.enum(['announcement', 'marketing_announcement']),
    subject: z.string().trim().min(1, 'Write a subject').max(200, 'At most 200 characters'),
    body: z.string().trim().min(1, 'Write a message').max(5000, 'At most 5000 characters'),
    segment: z.enum(['active', 'plan', 'class', 'lapsed', 'trial_ended', 'consent']),
    planSlug: z.string(),
    classId: z.string(),
    lapsedDays: z.coerce.number<string | number>().int('Whole days').min(1, 'From 1 to 365 days').max(365, 'From 1 to 365 days'),
    when: z.enum(['now', 'later']),
    sendAt: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.segment === 'plan' && !v.planSlug) ctx.addIssue({ code: 'custom', path: ['planSlug'], message: 'Choose a plan' });
    if (v.segment === 'class' && !v.classId) ctx.addIssue({ code: 'custom', path: ['classId'], message: 'Choose a class' });
    if (v.when === 'later' && !(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v.sendAt) && new Date(sendAtUtc(v.sendAt)).getTime() > Date.now()))
      ctx.addIssue({ code: 'custom', path: ['sendAt'], message: 'Choose a time in the future' });
  });

export type AnnouncementForm = z.input<typeof announcementSchema>;
export type AnnouncementInput = z.output<typeof announcementSchema>;

/** A datetime-local value ('2027-03-01T09:30') read as London time, as a UTC ISO string. */
export const sendAtUtc = (value: string) => londonWallClockToUtc(value.slice(0, 10), value.slice(11, 16));

/** Who it is for, as the RPCs take it. */
const audience = (v: AnnouncementInput) => ({
  p_type: v.type,
  p_segment: v.segment,
  p_plan_slug: v.segment === 'plan' ? v.planSlug : undefined,
  p_class_id: v.segment === 'class' ? v.classId : undefined,
  p_lapsed_days: v.segment === 'lapsed' ? v.lapsedDays : undefined,
});

export async function previewAnnouncement(v: AnnouncementInput): Promise<AnnouncementPreview> {
  const { data, error } = await supabase.rpc('preview_announcement', audience(v));
  if (error) throw error;
  return data;
}

export async function createAnnouncement(v: AnnouncementInput): Promise<Announcement> {
  const { data, error } = await supabase.rpc('create_announcement', {
    ...audience(v),
    p_subject: v.subject,
    p_body: v.body,
    p_send_at: v.when === 'later' ? sendAtUtc(v.sendAt) : undefined,
  });
  if (error) throw error;
  return data;
}

export async function cancelAnnouncement(id: string): Promise<Announcement> {
  const { data, error } = await supabase.rpc('cancel_announcement', { p_id: id });
  if (error) throw error;
  return data;
}

export async function getAnnouncements(): Promise<Announcement[]> {
  const { data, error } = await supabase.from('announcements').select('*').order('created_at', { ascending: false }).limit(20);
  if (error) throw error;
  return data;
}

export const announcementsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.announcements(), queryFn: getAnnouncements });

export const useAnnouncements = () => useQuery(announcementsQueryOptions());

export type ClassChoice = { id: string; name: string; start_time: string };

/** Classes from two weeks ago to a month ahead: an announcement may be for the people of either. */
export async function getAnnouncementClasses(): Promise<ClassChoice[]> {
  const now = Date.now();
  const { data, error } = await supabase
    .from('classes')
    .select('id, name, start_time')
    .gte('start_time', new Date(now - 14 * 86_400_000).toISOString())
    .lte('start_time', new Date(now + 31 * 86_400_000).toISOString())
    .order('start_time')
    .limit(200);
  if (error) throw error;
  return data;
}

export const useAnnouncementClasses = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.admin.announcementClasses(), queryFn: getAnnouncementClasses, enabled });

export const usePreviewAnnouncement = () => useMutation({ mutationFn: previewAnnouncement });

export function useCreateAnnouncement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAnnouncement,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin.announcements() }),
  });
}

export function useCancelAnnouncement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelAnnouncement,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin.announcements() }),
  });
}
