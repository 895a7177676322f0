import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { formatLondonDate } from '@/lib/studio-calendar';

/**
 * Pausing a membership (decision 0050). The database decides everything: `preview_pause` answers
 * what a pause would do (or refuses it with the studio's rule in words), `confirm_pause` runs the
 * same rules again and does it, `end_pause` ends it early or withdraws it. `memberId` is set when
 * an admin acts for a member; null is the caller's own membership.
 */
/** What a pause changes: the membership (its renewal), the member row, billing, usage and bookings. */
function invalidatePaused(queryClient: QueryClient) {
  return Promise.all(
    [
      queryKeys.membership.all,
      queryKeys.member.all,
      queryKeys.payments.all,
      queryKeys.planUsage.all,
      queryKeys.bookings.all,
      queryKeys.admin.all,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date');

export const pauseFormSchema = z
  .object({ startsOn: day, endsOn: day })
  .refine((f) => f.endsOn >= f.startsOn, { message: 'The last day is on or after the first', path: ['endsOn'] });
export type PauseForm = z.input<typeof pauseFormSchema>;

const bookingSchema = z.object({ booking_id: z.string(), class_name: z.string(), start_time: z.string(), refund: z.coerce.number() });

export type PauseQuote = {
  startsOn: string;
  endsOn: string;
  days: number;
  holdFee: number | null;
  feeMonths: number;
  feeTotal: number;
  renewalBefore: string;
  renewalAfter: string;
  cancelledBookings: z.infer<typeof bookingSchema>[];
};

function readQuote(data: unknown): PauseQuote {
  const q = compositeRow<'pause_quote'>(data as never);
  return {
    startsOn: q.starts_on,
    endsOn: q.ends_on,
    days: q.days,
    holdFee: q.hold_fee === null || q.hold_fee === undefined ? null : Number(q.hold_fee),
    feeMonths: q.fee_months,
    feeTotal: Number(q.fee_total),
    renewalBefore: q.renewal_before,
    renewalAfter: q.renewal_after,
    cancelledBookings: z.array(bookingSchema).parse(q.cancelled_bookings ?? []),
  };
}

const args = (form: PauseForm, memberId: string | null) => {
  const { startsOn, endsOn } = pauseFormSchema.parse(form);
  return { p_starts_on: startsOn, p_ends_on: endsOn, ...(memberId ? { p_member_id: memberId } : {}) };
};

export async function previewPause(form: PauseForm, memberId: string | null): Promise<PauseQuote> {
  const { data, error } = await supabase.rpc('preview_pause', args(form, memberId));
  if (error) throw error;
  return readQuote(data);
}

export async function confirmPause(form: PauseForm, memberId: string | null): Promise<PauseQuote> {
  const { data, error } = await supabase.rpc('confirm_pause', args(form, memberId));
  if (error) throw error;
  return readQuote(data);
}

export type CurrentPause = {
  startsOn: string;
  endsOn: string;
  holdFee: number | null;
  byAdmin: boolean;
  renewalAfter: string;
  running: boolean;
};

export async function getCurrentPause(memberId: string | null): Promise<CurrentPause | null> {
  const { data, error } = await supabase.rpc('current_pause', memberId ? { p_member_id: memberId } : {});
  if (error) throw error;
  // A null row type reaches PostgREST clients as an object of nulls.
  if (!data?.id) return null;
  const p = compositeRow<'pause_view'>(data);
  return {
    startsOn: p.starts_on,
    endsOn: p.ends_on,
    holdFee: p.hold_fee === null ? null : Number(p.hold_fee),
    byAdmin: p.by_admin,
    renewalAfter: p.renewal_after,
    running: p.running,
  };
}

export const currentPauseQueryOptions = (memberId: string | null) =>
  queryOptions({ queryKey: queryKeys.membership.pause(memberId ?? 'mine'), queryFn: () => getCurrentPause(memberId) });

export const useCurrentPause = (memberId: string | null, enabled = true) => useQuery({ ...currentPauseQueryOptions(memberId), enabled });

export async function endPause(memberId: string | null): Promise<void> {
  const { error } = await supabase.rpc('end_pause', memberId ? { p_member_id: memberId } : {});
  if (error) throw error;
}

export function usePreviewPause(memberId: string | null) {
  return useMutation({ mutationFn: (form: PauseForm) => previewPause(form, memberId) });
}

export function useConfirmPause(memberId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: PauseForm) => confirmPause(form, memberId),
    onSuccess: () => invalidatePaused(queryClient),
  });
}

export function useEndPause(memberId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => endPause(memberId), onSuccess: () => invalidatePaused(queryClient) });
}

export type PauseRules = {
  membersMayPause: boolean;
  minDays: number;
  maxDays: number;
  perYear: number;
  noticeDays: number;
  holdFee: number | null;
};

export async function getPauseRules(): Promise<PauseRules> {
  const { data, error } = await supabase.from('pause_rules').select('*').single();
  if (error) throw error;
  return {
    membersMayPause: data.members_may_pause,
    minDays: data.min_days,
    maxDays: data.max_days,
    perYear: data.per_year,
    noticeDays: data.notice_days,
    holdFee: data.hold_fee === null ? null : Number(data.hold_fee),
  };
}

export const usePauseRules = () => useQuery({ queryKey: queryKeys.membership.pauseRules(), queryFn: getPauseRules });

const whole = (label: string, min: number, max: number) =>
  z.coerce
    .number({ message: `Enter ${label}` })
    .int(`Enter ${label} as a whole number`)
    .min(min, `${label[0]!.toUpperCase()}${label.slice(1)} is at least ${min}`)
    .max(max, `${label[0]!.toUpperCase()}${label.slice(1)} is at most ${max}`);

export const pauseRulesSchema = z
  .object({
    membersMayPause: z.boolean(),
    minDays: whole('the shortest pause', 1, 365),
    maxDays: whole('the longest pause', 1, 365),
    perYear: whole('pauses a year', 1, 12),
    noticeDays: whole('the notice', 0, 60),
    holdFee: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (/^\d+(\.\d{1,2})?$/.test(v) && Number(v) > 0 && Number(v) <= 1000),
        'Enter a fee from £0.01 to £1000, or leave it empty',
      ),
  })
  .refine((f) => Number(f.maxDays) >= Number(f.minDays), { message: 'The longest pause is at least the shortest', path: ['maxDays'] });
export type PauseRulesForm = z.input<typeof pauseRulesSchema>;

export async function savePauseRules(form: PauseRulesForm): Promise<void> {
  const f = pauseRulesSchema.parse(form);
  const { error } = await supabase.rpc('admin_set_pause_rules', {
    p_members_may_pause: f.membersMayPause,
    p_min_days: f.minDays,
    p_max_days: f.maxDays,
    p_per_year: f.perYear,
    p_notice_days: f.noticeDays,
    p_hold_fee: f.holdFee === '' ? null : Number(f.holdFee),
  });
  if (error) throw error;
}

export function useSavePauseRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePauseRules,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.membership.pauseRules() }),
  });
}
/** '2027-01-25' (a pause's London calendar day) as '25 January 2027', whatever the browser's zone. */
export const formatDay = (day: string) => formatLondonDate(`${day}T12:00:00Z`);

/** The database's refusal in its own words (a PostgREST error is a plain object, not an Error), else `fallback`. */
export function pauseErrorText(error: unknown, fallback: string): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? error.message : null;
  return typeof message === 'string' && message ? message : fallback;
}
