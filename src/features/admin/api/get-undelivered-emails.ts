import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkedText } from '@/lib/checked-text';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** How a notification goes out (decision 0040). */
export type NotificationChannel = 'email' | 'push' | 'sms';

/** A delivery (email, push or text) its sender gave up on after its last attempt (decisions 0008, 0040). */
export type UndeliveredEmail = {
  id: string;
  kind: string;
  channel: NotificationChannel;
  toEmail: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  failedAt: string;
};

export async function getUndeliveredEmails(): Promise<UndeliveredEmail[]> {
  const { data, error } = await supabase.rpc('undelivered_emails');
  if (error) throw error;
  // Every column of a failed delivery is set (last_error too, though UndeliveredEmail keeps its type's null).
  return compositeRows<'undelivered_email'>(data).map((e) => ({
    id: e.id,
    kind: e.kind,
    channel: checkedText<NotificationChannel>(e.channel),
    toEmail: e.to_email,
    subject: e.subject,
    attempts: e.attempts,
    lastError: e.last_error,
    createdAt: e.created_at,
    failedAt: e.failed_at,
  }));
}

export const undeliveredEmailsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.undeliveredEmails(), queryFn: getUndeliveredEmails });

export const useUndeliveredEmails = () => useQuery(undeliveredEmailsQueryOptions());

/** Queues a failed delivery (any channel) again with fresh attempts (retry_email, admins only). */
export async function retryEmail(id: string): Promise<void> {
  const { error } = await supabase.rpc('retry_email', { p_id: id });
  if (error) throw error;
}

export function useRetryEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.undeliveredEmails() }),
  });
}
