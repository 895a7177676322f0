import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

const questionsSchema = z.array(z.string());
const answersSchema = z.array(z.boolean());

/** The member's own PAR-Q answers with the questions of the version they answered (null: none on record). */
export async function getMyHealthAnswers(memberId: string) {
  const { data, error } = await (
    await loadSupabase()
  )
    .from('health_answers')
    .select('answers, details, consented_at, answered_at, signed_name, document_versions(version, title, questions)')
    .eq('member_id', memberId)
    .maybeSingle();
  if (error) throw error;
  if (!data?.document_versions) return null;
  const questions = questionsSchema.parse(data.document_versions.questions);
  const answers = answersSchema.parse(data.answers);
  return {
    title: data.document_versions.title,
    version: data.document_versions.version,
    details: data.details,
    consentedAt: data.consented_at,
    answeredAt: data.answered_at,
    signedName: data.signed_name,
    items: questions.map((question, i) => ({ question, answer: answers[i] ?? false })),
  };
}
export type HealthAnswers = NonNullable<Awaited<ReturnType<typeof getMyHealthAnswers>>>;

export const myHealthAnswersQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.documents.health(memberId), queryFn: () => getMyHealthAnswers(memberId) });

export const useMyHealthAnswers = (memberId: string | null) =>
  useQuery({ ...myHealthAnswersQueryOptions(memberId ?? ''), enabled: memberId !== null });

/** Withdraws the health consent: the database deletes the answers (withdraw_health_answers). */
export async function withdrawHealthAnswers(): Promise<void> {
  const { error } = await (await loadSupabase()).rpc('withdraw_health_answers');
  if (error) throw error;
}

export function useWithdrawHealthAnswers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawHealthAnswers,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
