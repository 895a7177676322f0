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
  /** Signs for this child of the member (the waiver and the children's health questionnaire) instead of for the member. */
  dependantId?: string;
};

/** Signs the given current versions with the typed name; with the PAR-Q, saves the answers (sign_documents). */
export async function signDocuments(input: SignInput): Promise<void> {
  const supabase = await loadSupabase();
  const args = {
    p_signed_name: input.signedName,
    p_document_ids: input.documentIds,
    p_answers: input.answers,
    p_details: input.details,
    p_health_consent: input.healthConsent,
  };
  const { error } = input.dependantId
    ? await supabase.rpc('sign_for_dependant', { ...args, p_dependant_id: input.dependantId })
    : await supabase.rpc('sign_documents', args);
  if (error) throw error;
}

export function useSignDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signDocuments,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
