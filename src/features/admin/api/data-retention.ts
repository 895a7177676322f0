import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { RETENTION_DAYS } from '../lib/data-retention';

/** The studio's two retention periods, in days (public.data_retention, 27_data_rights.sql). */
export type DataRetention = { guest_signature_days: number; contact_message_days: number };

export async function getDataRetention(): Promise<DataRetention> {
  const { data, error } = await supabase.rpc('admin_data_retention');
  if (error) throw error;
  return compositeRow<'data_retention'>(data);
}

export const dataRetentionQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.dataRetention(), queryFn: getDataRetention });

export const useDataRetention = () => useQuery(dataRetentionQueryOptions());

const days = (what: string) =>
  z.coerce
    .number({ message: `${what}: enter a number of days` })
    .int(`${what}: whole days`)
    .min(RETENTION_DAYS.min, `${what}: at least ${RETENTION_DAYS.min} days`)
    .max(RETENTION_DAYS.max, `${what}: at most ${RETENTION_DAYS.max} days`);

/** The form: the database's bounds (admin_set_data_retention refuses anything else, 22023). */
export const dataRetentionFormSchema = z.object({
  guest_signature_days: days('Guest waiver signatures'),
  contact_message_days: days('Contact Us messages'),
});

export type DataRetentionForm = z.input<typeof dataRetentionFormSchema>;

/** Saves both periods; the next hourly retention run applies them (recorded in Activity). */
export function useSaveDataRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DataRetentionForm): Promise<DataRetention> => {
      const periods = dataRetentionFormSchema.parse(input);
      const { data, error } = await supabase.rpc('admin_set_data_retention', {
        p_guest_signature_days: periods.guest_signature_days,
        p_contact_message_days: periods.contact_message_days,
      });
      if (error) throw error;
      return compositeRow<'data_retention'>(data);
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.admin.dataRetention(), saved),
  });
}
