import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/**
 * A member's credits with their history: where each came from, until when, and the
 * booking that used it, or who revoked it and why. Admins read every member's (row policy).
 */
export async function getMemberCredits(memberId: string) {
  const { data, error } = await supabase
    .from('credits')
    .select(
      'id, kind, source, reason, payment_id, valid_from, expires_at, used_at, revoked_at, revoke_reason, created_at, booking:bookings(id, class:classes(id, name, trainer, start_time, type))',
    )
    .eq('member_id', memberId)
    .order('created_at', { ascending: false })
    .order('seq');
  if (error) throw error;
  return data;
}
export type MemberCredit = Awaited<ReturnType<typeof getMemberCredits>>[number];

/** One-to-One sessions not started with a free place: where an admin books or moves a session. */
export async function getOpenSessions(now: Date = new Date()) {
  const { data, error } = await supabase
    .from('classes')
    .select('id, trainer, start_time, duration')
    .eq('type', 'One-to-One')
    .gt('start_time', now.toISOString())
    .gt('spots_left', 0)
    .order('start_time')
    .limit(200);
  if (error) throw error;
  return data;
}
export type OpenSession = Awaited<ReturnType<typeof getOpenSessions>>[number];

const creditsKey = (memberId: string) => [...queryKeys.admin.trainers(), 'member-credits', memberId] as const;

export const useMemberCredits = (memberId: string) =>
  useQuery(
    queryOptions({
      queryKey: creditsKey(memberId),
      queryFn: () => getMemberCredits(memberId),
    }),
  );

export const useOpenSessions = () =>
  useQuery(
    queryOptions({
      queryKey: [...queryKeys.admin.trainers(), 'open-sessions'],
      queryFn: () => getOpenSessions(),
    }),
  );

/** The grant form: the database's limits (1–50 credits, valid 1–366 days, a reason). */
export const grantFormSchema = z.object({
  kind: z.enum(['personal_training', 'guest_pass', 'class']),
  count: z.coerce.number().int().min(1, 'At least 1').max(50, 'At most 50'),
  validDays: z.coerce.number().int().min(1, 'At least 1 day').max(366, 'At most 366 days'),
  reason: z.string().trim().min(1, 'Give a reason').max(300, 'At most 300 characters'),
});
export type GrantForm = z.input<typeof grantFormSchema>;

type CreditWrite =
  | { kind: 'grant'; memberId: string; values: GrantForm }
  | { kind: 'revoke'; creditId: string; reason: string }
  | { kind: 'refund-package'; paymentId: string; reason: string }
  | { kind: 'book'; memberId: string; classId: string }
  | { kind: 'move'; bookingId: string; classId: string };

/** Every admin write of this screen goes through a database function that checks it (decision 0017, 0020). */
export async function writeMemberCredits(write: CreditWrite): Promise<void> {
  if (write.kind === 'grant') {
    const v = grantFormSchema.parse(write.values);
    const { error } = await supabase.rpc('admin_grant_credits', {
      p_member_id: write.memberId,
      p_kind: v.kind,
      p_count: v.count,
      p_valid_days: v.validDays,
      p_reason: v.reason,
    });
    if (error) throw error;
  } else if (write.kind === 'revoke') {
    const { error } = await supabase.rpc('admin_revoke_credit', {
      p_credit_id: write.creditId,
      p_reason: write.reason,
    });
    if (error) throw error;
  } else if (write.kind === 'refund-package') {
    // Revokes the package's unused sessions and owes their price back (Bookings → Refunds owed pays it).
    const { error } = await supabase.rpc('admin_refund_package', {
      p_payment_id: write.paymentId,
      p_reason: write.reason,
    });
    if (error) throw error;
  } else if (write.kind === 'book') {
    const { error } = await supabase.rpc('admin_book_one_to_one', {
      p_member_id: write.memberId,
      p_class_id: write.classId,
    });
    if (error) throw error;
  } else {
    const { error } = await supabase.rpc('admin_move_session', {
      p_booking_id: write.bookingId,
      p_to_class_id: write.classId,
    });
    if (error) throw error;
  }
}

export function useWriteMemberCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: writeMemberCredits,
    onSuccess: () => invalidateAfterAdminWrite(queryClient),
  });
}
