import { useMutation } from '@tanstack/react-query';
import { callFunction } from '@/lib/functions-client';
import { supabase } from '@/lib/supabase';

/** Everything the studio holds about the signed-in member (my_data_export, decision 0047). */
export type MyDataExport = Record<string, unknown>;

export async function getMyData(): Promise<MyDataExport> {
  const { data, error } = await supabase.rpc('my_data_export');
  if (error) throw error;
  return data;
}

export const useDownloadMyData = () => useMutation({ mutationFn: getMyData });

/** Closes the member's own account through the delete-member function (decision 0047). */
export const closeMyAccount = () => callFunction('delete-member', { own: true });

export const useCloseMyAccount = () => useMutation({ mutationFn: closeMyAccount });
