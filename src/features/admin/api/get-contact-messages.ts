import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** A Contact Us message as the Messages page shows it (admins read them by row-level security). */
export type ContactMessage = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  topic: string | null;
  createdAt: string;
  handledAt: string | null;
};

export type ContactMessageFilter = 'open' | 'all';

/** The newest messages a page shows; older ones are the studio's archive in the database. */
export const CONTACT_MESSAGES_LIMIT = 100;

export async function getContactMessages(filter: ContactMessageFilter): Promise<ContactMessage[]> {
  let query = supabase
    .from('contact_messages')
    .select('id, name, email, phone, message, topic, created_at, handled_at')
    .order('created_at', { ascending: false })
    .limit(CONTACT_MESSAGES_LIMIT);
  if (filter === 'open') query = query.is('handled_at', null);
  const { data, error } = await query;
  if (error) throw error;
  return data.map((m) => ({
    id: m.id,
    name: m.name,
    email: m.email,
    phone: m.phone,
    message: m.message,
    topic: m.topic,
    createdAt: m.created_at,
    handledAt: m.handled_at,
  }));
}

export const contactMessagesQueryOptions = (filter: ContactMessageFilter) =>
  queryOptions({
    queryKey: queryKeys.admin.contactMessages({ filter }),
    queryFn: () => getContactMessages(filter),
    placeholderData: keepPreviousData,
  });

export const useContactMessages = (filter: ContactMessageFilter) => useQuery(contactMessagesQueryOptions(filter));

/** Marks a message handled (or open again): mark_contact_message_handled, admins only. */
export async function markContactMessageHandled({ id, handled }: { id: string; handled: boolean }): Promise<void> {
  const { error } = await supabase.rpc('mark_contact_message_handled', { p_id: id, p_handled: handled });
  if (error) throw error;
}

export function useMarkContactMessageHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markContactMessageHandled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.contactMessagesAll() }),
  });
}
