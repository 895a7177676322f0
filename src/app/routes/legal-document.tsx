import { useParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { useCurrentDocument } from '@/features/documents/api/get-document';
import { DocumentText } from '@/features/documents/components/document-text';
import { DOCUMENT_MESSAGES, documentQuestions, isDocumentKind, type DocumentKind } from '@/features/documents/lib/document-words';
import { NotFoundPage } from './not-found-page';

/** /legal/<kind>: the current published version of a studio document (the footer's Privacy, Terms, Cookies). */
export function LegalDocumentRoute() {
  const { kind } = useParams();
  if (!isDocumentKind(kind)) return <NotFoundPage />;
  return <LegalDocument kind={kind} />;
}

function LegalDocument({ kind }: { kind: DocumentKind }) {
  const doc = useCurrentDocument(kind);
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      {doc.isPending ? (
        <Spinner label="Loading" />
      ) : doc.isError ? (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {DOCUMENT_MESSAGES.loadFailed}
        </p>
      ) : !doc.data ? (
        <p className="text-slate-600">{DOCUMENT_MESSAGES.notPublished}</p>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{doc.data.title}</h1>
          <p className="mt-2 text-sm text-slate-500">
            Version {doc.data.version}, published{' '}
            {new Date(doc.data.published_at).toLocaleDateString('en-GB', {
              day: 'numeric',
              month: 'long',
              year: 'numeric',
              timeZone: 'Europe/London',
            })}
          </p>
          <div className="mt-6">
            <DocumentText body={doc.data.body} />
          </div>
          {documentQuestions(doc.data.questions).length > 0 && (
            <ol className="mt-6 list-decimal space-y-2 pl-5 text-sm text-slate-700">
              {documentQuestions(doc.data.questions).map((q) => (
                <li key={q}>{q}</li>
              ))}
            </ol>
          )}
        </>
      )}
    </article>
  );
}
