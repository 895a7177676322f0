import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The database keeps messages up to this length (contact_messages.message). */
export const CONTACT_MESSAGE_MAX = 1500;

/**
 * The Contact Us form (spec section 5: name, email, message required; phone optional). The same
 * rules and messages are enforced by submit_contact_message in the database. `website` is the
 * honeypot: hidden from people, filled by bots; the database ignores such a message.
 */
export const contactMessageSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200, 'Please shorten your name (at most 200 characters)'),
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address')),
  phone: z.string().trim().max(40, 'Please enter a phone number of at most 40 characters'),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(CONTACT_MESSAGE_MAX, `Your message is too long (at most ${CONTACT_MESSAGE_MAX} characters)`),
  website: z.string(),
});
export type ContactMessageForm = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

export const EMPTY_CONTACT_MESSAGE: ContactMessageForm = { name: '', email: '', phone: '', message: '', website: '' };

/** Stores the message and queues its email to the studio (one database transaction). */
export async function submitContactMessage({ values, topic }: { values: ContactMessage; topic: string | null }): Promise<void> {
  // Straight to the project: its per-address limit must see the sender's address (decision 0060).
  const { error } = await supabase.directRpc('submit_contact_message', {
    p_name: values.name,
    p_email: values.email,
    p_phone: values.phone || undefined,
    p_message: values.message,
    p_topic: topic ?? undefined,
    p_website: values.website || undefined,
  });
  if (error) throw error;
}

export function useSubmitContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitContactMessage,
    // An admin signed in on this browser sees the new message on the Messages page.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
