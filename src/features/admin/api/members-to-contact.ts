import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Database } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** One member the studio should contact, why, since when and the last contact (`members_to_contact()`). */
export type MemberToContact = Database['public']['CompositeTypes']['member_to_contact'];

/** The reasons, as `public.member_contacts.reason` lists them, in the portal's words. */
export const CONTACT_REASON_LABELS: Record<string, string> = {
  trial_ended: 'Trial ended unused',
  free_class_taken: 'Free class taken, no plan',
  free_class_missed: 'Missed free class',
  membership_lapsed: 'Membership lapsed',
  membership_cancelled: 'Membership cancelled',
  past_due: 'Payment due',
  attendance_dropped: 'Coming less often',
  credits_expiring: 'Credits expiring',
};

export async function getMembersToContact(): Promise<MemberToContact[]> {
  const { data, error } = await supabase.rpc('members_to_contact');
  if (error) throw error;
  return data;
}

export const membersToContactQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.membersToContact(), queryFn: getMembersToContact });

export const useMembersToContact = () => useQuery(membersToContactQueryOptions());

export type ContactInput = { memberId: string; reason: string } & (
  { kind: 'note'; note: string } | { kind: 'email'; subject: string; message: string }
);

/** Notes a call (`admin_record_contact`) or emails the member through the outbox (`admin_email_member`). */
export async function contactMember(input: ContactInput): Promise<void> {
  const { error } =
    input.kind === 'note'
      ? await supabase.rpc('admin_record_contact', { p_member_id: input.memberId, p_reason: input.reason, p_note: input.note })
      : await supabase.rpc('admin_email_member', {
          p_member_id: input.memberId,
          p_reason: input.reason,
          p_subject: input.subject,
          p_message: input.message,
        });
  if (error) throw error;
}

export function useContactMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: contactMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.membersToContact() }),
  });
}
