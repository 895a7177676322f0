import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The studio's review requests (decision 0088): after how many classes, how often, which link. */
export type ReviewRequestSettings = { afterClasses: number | null; onceInMonths: number; reviewUrl: string };

export async function getReviewRequestSettings(): Promise<ReviewRequestSettings> {
  const { data, error } = await supabase.rpc('admin_review_request_settings');
  if (error) throw error;
  const row = compositeRow<'review_request_settings', 'once_in_months'>(data);
  return { afterClasses: row.after_classes ?? null, onceInMonths: row.once_in_months, reviewUrl: row.review_url ?? '' };
}

export const useReviewRequestSettings = () => useQuery({ queryKey: queryKeys.admin.reviewRequests(), queryFn: getReviewRequestSettings });

/** The form as typed: the number of classes blank turns requests off. The database's limits. */
export const reviewSettingsSchema = z
  .object({
    afterClasses: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100),
        'A number of classes from 1 to 100, or blank for off',
      ),
    onceInMonths: z
      .string()
      .trim()
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 24, 'A number of months from 1 to 24'),
    reviewUrl: z
      .string()
      .trim()
      .max(500, 'At most 500 characters')
      .refine((v) => v === '' || /^https:\/\/[^\s<>"]+$/.test(v), 'A web address starting https://'),
  })
  .refine((v) => v.afterClasses === '' || v.reviewUrl !== '', { path: ['reviewUrl'], message: 'Add the review link to send requests' });
export type ReviewSettingsForm = z.infer<typeof reviewSettingsSchema>;

export function useSaveReviewRequestSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReviewSettingsForm): Promise<ReviewRequestSettings> => {
      const form = reviewSettingsSchema.parse(input);
      // The generated types cannot say an argument may be null; blank is "off".
      const { data, error } = await supabase.rpc('set_review_request_settings', {
        p_after_classes: (form.afterClasses === '' ? null : Number(form.afterClasses)) as number,
        p_once_in_months: Number(form.onceInMonths),
        p_review_url: form.reviewUrl,
      });
      if (error) throw error;
      const row = compositeRow<'review_request_settings', 'once_in_months'>(data);
      return { afterClasses: row.after_classes ?? null, onceInMonths: row.once_in_months, reviewUrl: row.review_url ?? '' };
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.admin.reviewRequests(), saved),
  });
}
