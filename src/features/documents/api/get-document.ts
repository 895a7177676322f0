import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import type { Tables } from '@/lib/database.types';
import type { DocumentKind } from '../lib/document-words';

export type DocumentVersion = Tables<'document_versions'>;

/** The current (highest) published version of a document, or null before the first one. Anyone may read it. */
export async function getCurrentDocument(kind: DocumentKind): Promise<DocumentVersion | null> {
  const { data, error } = await (
    await loadSupabase()
  )
    .from('document_versions')
    .select('*')
    .eq('kind', kind)
    .order('version', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export const currentDocumentQueryOptions = (kind: DocumentKind) =>
  queryOptions({ queryKey: queryKeys.documents.current(kind), queryFn: () => getCurrentDocument(kind) });

export const useCurrentDocument = (kind: DocumentKind) => useQuery(currentDocumentQueryOptions(kind));

/** Several versions by id (the ones a member is asked to sign). */
export async function getDocumentsById(ids: string[]): Promise<DocumentVersion[]> {
  if (ids.length === 0) return [];
  const { data, error } = await (await loadSupabase()).from('document_versions').select('*').in('id', ids);
  if (error) throw error;
  return data;
}
