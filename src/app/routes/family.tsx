import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useCurrentDocument } from '@/features/documents/api/get-document';
import { SignDocumentsForm } from '@/features/documents/components/sign-documents-form';
import { useMyDependants, type Dependant } from '@/features/family/api/dependants';
import { FamilyPanel } from '@/features/family/components/family-panel';
import { FAMILY_MESSAGES } from '@/features/family/lib/child-form';
import { useAuth } from '@/lib/auth/auth-context';
import { toast } from '@/lib/toast';

/**
 * /family: a parent adds, edits and removes their children (no email, no sign-in) and
 * signs the current waiver and answers the children's health questionnaire for each, which a
 * child's booking needs.
 */
export function FamilyRoute() {
  const { member } = useAuth();
  const family = useMyDependants(member?.id ?? null);
  const waiver = useCurrentDocument('waiver');
  // Children answer the children's health questionnaire, never the adult PAR-Q (decision 0093).
  const questionnaire = useCurrentDocument('child_parq');
  const [signing, setSigning] = useState<Dependant | null>(null);
  const toSign = signing
    ? [waiver.data, questionnaire.data].filter((d): d is NonNullable<typeof d> => Boolean(d && signing.missing_documents.includes(d.kind)))
    : [];

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{signing ? `Sign for ${signing.name}` : FAMILY_MESSAGES.title}</h1>
      {family.isError ? (
        <p role="alert" className="mt-6 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          Could not load your family. Reload the page to try again.
        </p>
      ) : !family.data ? (
        <Spinner label="Loading your family" />
      ) : signing ? (
        <div className="mt-6 space-y-4">
          <p className="text-slate-600">
            As {signing.name}&apos;s parent or guardian, read and accept the waiver and answer the health questions for them.
          </p>
          {waiver.isPending || questionnaire.isPending ? (
            <Spinner label="Loading the documents" />
          ) : (
            <SignDocumentsForm
              documents={toSign}
              defaultName={member?.name}
              dependantId={signing.id}
              dependantName={signing.name}
              onSigned={() => {
                toast.success(FAMILY_MESSAGES.signed);
                setSigning(null);
              }}
            />
          )}
          <Button variant="outline" onClick={() => setSigning(null)}>
            Back to Family
          </Button>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-600">{FAMILY_MESSAGES.intro}</p>
          <div className="mt-6">
            <FamilyPanel dependants={family.data} onSign={setSigning} />
          </div>
        </>
      )}
    </section>
  );
}
