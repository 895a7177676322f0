import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type ClassRow } from '@/lib/supabase';
import { pageRange, type ListPage } from '../lib/paging';

/**
 * One page of Classes Management: upcoming classes soonest first, or (with `past`) classes that
 * have started, most recent first.
 */
export async function getClassesPage(page: number, past: boolean, now: Date = new Date()): Promise<ListPage<ClassRow>> {
  const query = supabase.from('classes').select('*', { count: 'exact' });
  const at = now.toISOString();
  const filtered = past
    ? query.lt('start_time', at).order('start_time', { ascending: false })
    : query.gte('start_time', at).order('start_time', { ascending: true });
  const { data, error, count } = await filtered.range(...pageRange(page));
  if (error) throw error;
  return { rows: data, total: count ?? data.length };
}

export const classesPageQueryOptions = (page: number, past: boolean) =>
  queryOptions({
    queryKey: queryKeys.admin.classes({ page, past }),
    queryFn: () => getClassesPage(page, past),
    placeholderData: keepPreviousData,
  });

export const useClassesPage = (page: number, past: boolean) => useQuery(classesPageQueryOptions(page, past));
