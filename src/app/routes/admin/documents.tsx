import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { DOCUMENT_NAMES } from '@/config/documents';
import { paths } from '@/config/paths';
import { useDocumentVersions, type DocumentKind } from '@/features/admin/api/documents-admin';
import { MemberDocumentsPanel } from '@/features/admin/components/member-documents-panel';
import { PageHeading } from '@/features/admin/components/page-heading';
import { PublishDocumentForm } from '@/features/admin/components/publish-document-form';

const KINDS: DocumentKind[] = ['terms', 'waiver', 'parq', 'child_parq', 'privacy', 'cookies'];

/**
 * /admin/documents: the current version of each document with Publish a new version,
 * and who has signed which version of the terms, waiver and PAR-Q.
 */
export function AdminDocumentsRoute() {
  const versions = useDocumentVersions();
  const [editing, setEditing] = useState<DocumentKind | null>(null);
  const current = (kind: DocumentKind) => versions.data?.find((d) => d.kind === kind) ?? null;

  return (
    <>
      <PageHeading
        title="Documents"
        subtitle="Terms, waiver, health questions and notices. Members sign the current terms, waiver and PAR-Q before booking; parents answer the children's health questionnaire for each child."
      />
      {versions.isPending ? (
        <Spinner label="Loading documents" />
      ) : editing ? (
        <PublishDocumentForm kind={editing} current={current(editing)} onDone={() => setEditing(null)} />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {KINDS.map((kind) => {
            const doc = current(kind);
            return (
              <li key={kind}>
                <Card className="h-full">
                  <h2 className="text-lg font-semibold">{DOCUMENT_NAMES[kind]}</h2>
                  <p className="mt-1 text-sm text-slate-600">
                    {doc ? `Version ${doc.version}, published ${formatInLondon(doc.published_at, DATE_FORMATS.date)}` : 'Not published yet'}
                  </p>
                  <div className="mt-4 flex flex-wrap gap-3">
                    <Button size="sm" onClick={() => setEditing(kind)} aria-label={`Publish a new version of the ${DOCUMENT_NAMES[kind]}`}>
                      Publish a new version
                    </Button>
                    {doc && (
                      <Link
                        to={paths.legal.href(kind)}
                        className="self-center text-sm font-medium text-brand-700 underline"
                        aria-label={`Read the ${DOCUMENT_NAMES[kind]}`}
                      >
                        Read
                      </Link>
                    )}
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <MemberDocumentsPanel />
    </>
  );
}
