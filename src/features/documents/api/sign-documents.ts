import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

export type SignInput = {
  signedName: string;
  documentIds: string[];
  /** One per PAR-Q question, when the PAR-Q is among documentIds. */
  answers: boolean[] | null;
  details: string;
  healthConsent: boolean;
};

/** Signs the given current versions with the typed name; with the PAR-Q, saves the answers (sign_documents). */
export async function signDocuments(input: SignInput): Promise<void> {
  const { error } = await (
    await loadSupabase()
  ).rpc('sign_documents', {
    p_signed_name: input.signedName,
    p_document_ids: input.documentIds,
    p_answers: input.answers,
    p_details: input.details,
    p_health_consent: input.healthConsent,
  });
  if (error) throw error;
}

export function useSignDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signDocuments,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
