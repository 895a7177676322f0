import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useMyDocuments } from '@/features/documents/api/get-my-documents';
import { useMyHealthAnswers } from '@/features/documents/api/health-answers';
import { HealthAnswersCard } from '@/features/documents/components/health-answers-card';
import { SignDocumentsForm } from '@/features/documents/components/sign-documents-form';
import { DOCUMENT_MESSAGES, DOCUMENT_NAMES, versionLine } from '@/features/documents/lib/document-words';
import { useAuth } from '@/lib/auth/auth-context';
import { documentsRequiredReason } from '@/lib/documents-gate';
import { toast } from '@/lib/toast';

/** Only paths of this site: `next` comes from the address bar. */
const safeNext = (next: string | null) => (next && next.startsWith('/') && !next.startsWith('//') ? next : null);

/**
 * /agreements: what the member must sign before booking (the current terms and
 * waiver, signed with their typed full name, and the PAR-Q with its separate health consent),
 * where they stand with each, and their health answers to see, update, download or withdraw.
 * Book refusals (documents_required) and the dashboard link here, with `next` to go back to.
 */
export function AgreementsRoute() {
  const { member } = useAuth();
  const memberId = member?.id ?? null;
  const docs = useMyDocuments(memberId);
  const health = useMyHealthAnswers(memberId);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [updating, setUpdating] = useState(false);
  const next = safeNext(params.get('next'));
  // A booking refused for documents not yet signed sent the member here: say why, calmly.
  const why = documentsRequiredReason(useLocation().state);
  // The member signs with the name on their account (sign_documents checks it).
  const accountName = member?.name ?? null;
  const account = useMemo(() => (memberId ? { memberId, name: accountName } : undefined), [memberId, accountName]);

  const toSign = docs.data ? docs.data.documents.filter((d) => !docs.data.status.find((s) => s.document_id === d.id)?.is_current) : [];
  const parq = docs.data?.documents.find((d) => d.kind === 'parq') ?? null;

  const onSigned = () => {
    toast.success(DOCUMENT_MESSAGES.signed);
    setUpdating(false);
    if (next) void navigate(next);
  };

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">
        {toSign.length > 0 ? DOCUMENT_MESSAGES.signTitle : DOCUMENT_MESSAGES.agreementsLink}
      </h1>
      {docs.isError ? (
        <p role="alert" className="mt-6 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {DOCUMENT_MESSAGES.loadFailed}
        </p>
      ) : !docs.data ? (
        <Spinner label="Loading the documents" />
      ) : toSign.length > 0 ? (
        <>
          {why && (
            <p
              role="status"
              aria-label={DOCUMENT_MESSAGES.whyHereLabel}
              className="mt-4 rounded-xl border border-brand-200 bg-brand-50 p-4 text-slate-800"
            >
              {DOCUMENT_MESSAGES.bookingWaits(why)}
            </p>
          )}
          <p className="mt-2 text-slate-600">{DOCUMENT_MESSAGES.signIntro}</p>
          <div className="mt-6">
            <SignDocumentsForm documents={toSign} defaultName={member?.name} account={account} onSigned={onSigned} />
          </div>
        </>
      ) : updating && parq ? (
        <div className="mt-6">
          <SignDocumentsForm
            documents={[parq]}
            defaultAnswers={health.data?.items.map((i) => i.answer)}
            defaultDetails={health.data?.details}
            defaultName={member?.name}
            account={account}
            submitLabel={DOCUMENT_MESSAGES.saveAnswers}
            onSigned={onSigned}
          />
        </div>
      ) : (
        <div className="mt-6 space-y-6">
          <Card>
            <p className="font-medium text-emerald-800">{DOCUMENT_MESSAGES.allSigned}</p>
            <ul className="mt-4 space-y-2 text-sm">
              {docs.data.status.map((d) => (
                <li key={d.kind} className="flex flex-wrap justify-between gap-2">
                  <Link to={paths.legal.href(d.kind)} className="font-medium text-brand-700 underline">
                    {DOCUMENT_NAMES[d.kind]}
                  </Link>
                  <span className="text-slate-600">{versionLine(d.version, d.accepted_at ?? null)}</span>
                </li>
              ))}
            </ul>
            {next && (
              <Link to={next} className="mt-4 inline-block font-medium text-brand-700 underline">
                Continue
              </Link>
            )}
          </Card>
          {parq && <HealthAnswersCard answers={health.data ?? null} onUpdate={() => setUpdating(true)} />}
        </div>
      )}
    </section>
  );
}
