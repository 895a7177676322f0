import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import type { Enums, Json, Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

export type DocumentKind = Enums<'document_kind'>;
export type DocumentVersion = Tables<'document_versions'>;

/** Every published version, newest first (admins see the history; the first of each kind is current). */
export async function getDocumentVersions(): Promise<DocumentVersion[]> {
  const { data, error } = await supabase.from('document_versions').select('*').order('kind').order('version', { ascending: false });
  if (error) throw error;
  return data;
}

export const documentVersionsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.documents(), queryFn: getDocumentVersions });

export const useDocumentVersions = () => useQuery(documentVersionsQueryOptions());

export type PublishInput = { kind: DocumentKind; title: string; body: string; summary: string; questions: string[] | null };

/** Publishes the next version of a document (publish_document); members sign it before their next booking. */
export async function publishDocument(input: PublishInput): Promise<DocumentVersion> {
  const questions: Json | null = input.questions;
  const { data, error } = await supabase.rpc('publish_document', {
    p_kind: input.kind,
    p_title: input.title,
    p_body: input.body,
    p_summary: input.summary,
    p_questions: questions,
  });
  if (error) throw error;
  return data;
}

export function usePublishDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishDocument,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
      ]),
  });
}

/** Where a member stands with the booking documents (admin_member_documents). */
export type MemberDocuments = CompositeRow<'member_documents', 'member_id' | 'email' | 'all_current' | 'health_flag'>;

export async function getMemberDocuments(unsignedOnly: boolean): Promise<MemberDocuments[]> {
  const { data, error } = await supabase.rpc('admin_member_documents', { p_unsigned_only: unsignedOnly });
  if (error) throw error;
  return compositeRows<'member_documents', 'member_id' | 'email' | 'all_current' | 'health_flag'>(data);
}

export const useMemberDocuments = (unsignedOnly: boolean) =>
  useQuery({ queryKey: queryKeys.admin.memberDocuments(unsignedOnly), queryFn: () => getMemberDocuments(unsignedOnly) });

/** A member's record of signatures: every version they signed, when, and the name they typed. */
export async function getMemberSignatures(memberId: string) {
  const { data, error } = await supabase
    .from('document_acceptances')
    .select('id, signed_name, accepted_at, document_versions(kind, version, title)')
    .eq('member_id', memberId)
    .order('accepted_at', { ascending: false });
  if (error) throw error;
  return data.flatMap((row) => (row.document_versions ? [{ ...row, document: row.document_versions }] : []));
}

export const useMemberSignatures = (memberId: string | null) =>
  useQuery({
    queryKey: queryKeys.admin.memberSignatures(memberId ?? ''),
    queryFn: () => getMemberSignatures(memberId ?? ''),
    enabled: memberId !== null,
  });
