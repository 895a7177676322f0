import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import { getDocumentsById, type DocumentVersion } from './get-document';

/** The current terms, waiver and PAR-Q and where the member stands with each (my_documents). */
export type MyDocument = CompositeRow<'my_document', 'kind' | 'document_id' | 'version' | 'title' | 'is_current'>;

export type MyDocuments = {
  status: MyDocument[];
  /** The full text of every current booking document, in status order. */
  documents: DocumentVersion[];
};

/** Where the member stands with each current document (one request, without the texts). */
export async function getMyDocumentStatus(): Promise<MyDocument[]> {
  const { data, error } = await (await loadSupabase()).rpc('my_documents');
  if (error) throw error;
  return compositeRows<'my_document', 'kind' | 'document_id' | 'version' | 'title' | 'is_current'>(data);
}

export async function getMyDocuments(): Promise<MyDocuments> {
  const status = await getMyDocumentStatus();
  const byId = new Map((await getDocumentsById(status.map((d) => d.document_id))).map((d) => [d.id, d]));
  return { status, documents: status.flatMap((d) => byId.get(d.document_id) ?? []) };
}

export const myDocumentsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.documents.mine(memberId), queryFn: getMyDocuments });

export const useMyDocuments = (memberId: string | null) =>
  useQuery({ ...myDocumentsQueryOptions(memberId ?? ''), enabled: memberId !== null });

/**
 * Only the status, for the dashboard's reminder: the texts would be a second round trip (after
 * the status names them) that the dashboard never shows. Under `mine(memberId)`, so whatever
 * refreshes the member's documents refreshes this too.
 */
export const myDocumentStatusQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.documents.mineStatus(memberId), queryFn: getMyDocumentStatus });

export const useMyDocumentStatus = (memberId: string | null) =>
  useQuery({ ...myDocumentStatusQueryOptions(memberId ?? ''), enabled: memberId !== null });

/** Something to sign before the next booking. */
export const needsSigning = (status: MyDocument[] | undefined) => Boolean(status?.some((d) => !d.is_current));
