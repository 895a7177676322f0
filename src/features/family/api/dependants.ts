import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/** One of the member's children and the documents (waiver, parq) still to sign for them (my_dependants). */
export type Dependant = CompositeRow<'my_dependant', 'id' | 'name' | 'date_of_birth' | 'missing_documents' | 'created_at'>;

export async function getMyDependants(): Promise<Dependant[]> {
  const { data, error } = await (await loadSupabase()).rpc('my_dependants');
  if (error) throw error;
  return compositeRows<'my_dependant', 'id' | 'name' | 'date_of_birth' | 'missing_documents' | 'created_at'>(data);
}

export const myDependantsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.documents.family(memberId), queryFn: getMyDependants });

export const useMyDependants = (memberId: string | null) =>
  useQuery({ ...myDependantsQueryOptions(memberId ?? ''), enabled: memberId !== null });

export type DependantInput = {
  /** null adds a child. */
  id: string | null;
  name: string;
  dateOfBirth: string;
  medicalNotes: string;
  collectedBy: string;
};

/** Adds or edits a child (save_dependant); the server refuses a date of birth in the future. */
export async function saveDependant(input: DependantInput): Promise<string> {
  const { data, error } = await (
    await loadSupabase()
  ).rpc('save_dependant', {
    ...(input.id ? { p_id: input.id } : {}),
    p_name: input.name,
    p_date_of_birth: input.dateOfBirth,
    p_medical_notes: input.medicalNotes,
    p_collected_by: input.collectedBy,
  });
  if (error) throw error;
  return data;
}

/** Removes a child (remove_dependant); refused while the child has a class ahead. */
export async function removeDependant(id: string): Promise<void> {
  const { error } = await (await loadSupabase()).rpc('remove_dependant', { p_id: id });
  if (error) throw error;
}

function useFamilyMutation<Input, Output>(fn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }) });
}

export const useSaveDependant = () => useFamilyMutation(saveDependant);
export const useRemoveDependant = () => useFamilyMutation(removeDependant);
