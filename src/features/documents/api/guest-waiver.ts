import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/**
 * What a guest's waiver link shows: their class, who invited them, the studio's current
 * waiver (document_id null when none is published) and their signature of it (null until signed).
 */
export type GuestWaiver = CompositeRow<'guest_waiver_view', 'guest_name' | 'class_name' | 'start_time' | 'host_name'>;

/** Reads the guest's class and waiver with the token from their email (`guest_waiver`), signed in or not. */
export async function getGuestWaiver(token: string): Promise<GuestWaiver> {
  const { data, error } = await (await loadSupabase()).rpc('guest_waiver', { p_token: token });
  if (error) throw error;
  return compositeRow<'guest_waiver_view', 'guest_name' | 'class_name' | 'start_time' | 'host_name'>(data);
}

export const guestWaiverQueryOptions = (token: string) =>
  queryOptions({ queryKey: queryKeys.documents.guestWaiver(token), queryFn: () => getGuestWaiver(token), enabled: token !== '' });

export const useGuestWaiver = (token: string) => useQuery(guestWaiverQueryOptions(token));

export type SignGuestWaiverInput = { token: string; signedName: string; documentId: string };

/** Signs the waiver version the guest read with their typed full name (`sign_guest_waiver`); signing again keeps the first. */
export async function signGuestWaiver({ token, signedName, documentId }: SignGuestWaiverInput): Promise<GuestWaiver> {
  const { data, error } = await (
    await loadSupabase()
  ).rpc('sign_guest_waiver', { p_token: token, p_signed_name: signedName, p_document_id: documentId });
  if (error) throw error;
  return compositeRow<'guest_waiver_view', 'guest_name' | 'class_name' | 'start_time' | 'host_name'>(data);
}

/** `onSigned` runs before the page shows the signature (the form it came from is then gone). */
export function useSignGuestWaiver(onSigned?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signGuestWaiver,
    onSuccess: (waiver, { token }) => {
      onSigned?.();
      queryClient.setQueryData(queryKeys.documents.guestWaiver(token), waiver);
    },
    // A newer waiver was published while the page was open: show it, to be read and signed.
    onError: (error, { token }) => {
      if ('hint' in error && error.hint === 'document_not_current')
        void queryClient.invalidateQueries({ queryKey: queryKeys.documents.guestWaiver(token) });
    },
  });
}
