import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { needsSigning, useMyDocumentStatus } from '../api/get-my-documents';
import { DOCUMENT_MESSAGES } from '../lib/document-words';

/**
 * On the dashboard: what to sign before the next booking, with the link; once everything is
 * signed, a quiet link to the member's agreements and health answers.
 */
export function DocumentsReminder({ memberId }: { memberId: string | null }) {
  const status = useMyDocumentStatus(memberId);
  if (!status.data) return null;
  if (!needsSigning(status.data)) {
    return (
      <p className="text-sm">
        <Link to={paths.agreements.href()} className="font-medium text-brand-700 underline">
          {DOCUMENT_MESSAGES.agreementsLink}
        </Link>
      </p>
    );
  }
  const signedBefore = status.data.some((d) => d.accepted_version !== null);
  return (
    <section aria-labelledby="documents-reminder" className="rounded-2xl border border-amber-300 bg-amber-50 p-5">
      <h2 id="documents-reminder" className="text-lg font-semibold text-amber-950">
        {signedBefore ? DOCUMENT_MESSAGES.remindStale : DOCUMENT_MESSAGES.remindTitle}
      </h2>
      <p className="mt-1 text-sm text-amber-900">{DOCUMENT_MESSAGES.remindBody}</p>
      <Link to={paths.agreements.href(paths.dashboard)} className={buttonClasses({ size: 'sm', className: 'mt-3' })}>
        {DOCUMENT_MESSAGES.remindLink}
      </Link>
    </section>
  );
}
