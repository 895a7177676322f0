import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextAreaField, TextField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import type { DocumentVersion } from '../api/get-document';
import { useSaveAccountName } from '../api/save-account-name';
import { useSignDocuments } from '../api/sign-documents';
import { DOCUMENT_MESSAGES, DOCUMENT_NAMES, documentQuestions, isHealthQuestionnaire } from '../lib/document-words';
import { nameToSignWith, signFormSchema, type SignFormValues } from '../lib/sign-form';
import { DocumentText } from './document-text';

type Props = {
  /** The current versions to sign now (terms, waiver and/or the PAR-Q). */
  documents: DocumentVersion[];
  /** Previous answers, when the member updates them. */
  defaultAnswers?: boolean[];
  defaultDetails?: string | null;
  defaultName?: string | null;
  submitLabel?: string;
  /** Sign for this child of the member (family accounts) rather than for the member. */
  dependantId?: string;
  /** The child's name, when signing for a child: the consent names them. */
  dependantName?: string;
  /**
   * The member signing for themselves: the name on their account, which the signature must be
   * (null when the account has none: the name they sign with is saved to it first).
   */
  account?: { memberId: string; name: string | null };
  onSigned: () => void;
};

/** sign_documents' refusals about the typed name: said on the signature field. */
const NAME_REFUSALS = ['signature_mismatch', 'account_name_required', 'signature_required'];

/** The sign page's form: read and tick each document, answer the PAR-Q, consent, type the full name. */
export function SignDocumentsForm({
  documents,
  defaultAnswers,
  defaultDetails,
  defaultName,
  submitLabel = DOCUMENT_MESSAGES.submit,
  dependantId,
  dependantName,
  account,
  onSigned,
}: Props) {
  const sign = useSignDocuments();
  const saveName = useSaveAccountName();
  const ownName = account ? nameToSignWith(account.name) : null;
  // The health questions: the adult PAR-Q, or for a child the children's questionnaire (decision 0093).
  const toAccept = documents.filter((d) => !isHealthQuestionnaire(d.kind));
  const parq = documents.find((d) => isHealthQuestionnaire(d.kind)) ?? null;
  const questions = useMemo(() => documentQuestions(parq?.questions), [parq]);
  const schema = useMemo(
    () =>
      signFormSchema(
        toAccept.map((d) => d.kind),
        questions.length,
        account ? account.name : undefined,
        dependantName ? DOCUMENT_MESSAGES.childConsentRequired : undefined,
      ),
    [toAccept, questions.length, account, dependantName],
  );
  const { register, handleSubmit, formState, setError } = useForm<SignFormValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      accepted: {},
      answers: questions.map((_, i) => (defaultAnswers?.[i] === undefined ? '' : defaultAnswers[i] ? 'yes' : 'no')),
      details: defaultDetails ?? '',
      consent: false,
      signature: defaultName ?? '',
    },
  });
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    if (sign.isPending || saveName.isPending) return;
    const signedName = values.signature.trim();
    // An account without a name takes the one its member signs with, so the signature matches it.
    if (account && !ownName) {
      try {
        await saveName.mutateAsync({ memberId: account.memberId, name: signedName });
      } catch {
        setError('signature', { message: DOCUMENT_MESSAGES.accountNameFailed }, { shouldFocus: true });
        return;
      }
    }
    // Awaited rather than mutate's callbacks: the documents' refetch that follows a signature
    // empties the list this form is rendered for, so the form unmounts before mutate's onSuccess
    // would run, and the member was left on /agreements instead of going back to their booking.
    try {
      await sign.mutateAsync({
        signedName,
        documentIds: documents.map((d) => d.id),
        answers: parq ? values.answers.map((a) => a === 'yes') : null,
        details: values.details,
        healthConsent: values.consent,
        ...(dependantId ? { dependantId } : {}),
      });
    } catch (error) {
      const refusal = error as { hint?: unknown; message?: string } | null;
      const hint = typeof refusal?.hint === 'string' ? refusal.hint : null;
      if (hint && NAME_REFUSALS.includes(hint)) setError('signature', { message: refusal?.message }, { shouldFocus: true });
      else toast.error(hint === 'document_not_current' && refusal?.message ? refusal.message : DOCUMENT_MESSAGES.signFailed);
      return;
    }
    onSigned();
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-6">
      {toAccept.map((doc) => (
        <Card key={doc.id}>
          <h2 className="text-lg font-semibold">{doc.title}</h2>
          <p className="text-sm text-slate-500">Version {doc.version}</p>
          {doc.summary && <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">What changed: {doc.summary}</p>}
          <div
            role="region"
            aria-label={doc.title}
            tabIndex={0}
            className="mt-4 max-h-72 overflow-y-auto rounded-lg border border-slate-200 p-4 focus:outline-none focus:ring-2 focus:ring-brand-200"
          >
            <DocumentText body={doc.body} />
          </div>
          <label className="mt-4 flex items-start gap-3 text-sm font-medium text-slate-800">
            <input type="checkbox" {...register(`accepted.${doc.kind}`)} className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600" />
            {DOCUMENT_MESSAGES.accept(DOCUMENT_NAMES[doc.kind])}
          </label>
          {errors.accepted?.[doc.kind] && <p className="mt-1 text-sm font-medium text-red-700">{errors.accepted[doc.kind]?.message}</p>}
        </Card>
      ))}

      {parq && (
        <Card>
          <h2 className="text-lg font-semibold">{parq.title}</h2>
          <p className="text-sm text-slate-500">Version {parq.version}</p>
          <div className="mt-4">
            <DocumentText body={parq.body} />
          </div>
          <ol className="mt-6 space-y-5">
            {questions.map((question, i) => (
              <li key={question}>
                <fieldset aria-describedby={errors.answers?.[i] ? `answer-error-${i}` : undefined}>
                  <legend className="text-sm font-medium text-slate-900">
                    {i + 1}. {question}
                  </legend>
                  <div className="mt-2 flex gap-6">
                    {(['yes', 'no'] as const).map((value) => (
                      <label key={value} className="flex min-h-11 items-center gap-2 text-sm">
                        <input type="radio" value={value} {...register(`answers.${i}`)} className="h-5 w-5 accent-brand-600" />
                        {value === 'yes' ? 'Yes' : 'No'}
                      </label>
                    ))}
                  </div>
                  {errors.answers?.[i] && (
                    <p id={`answer-error-${i}`} className="text-sm font-medium text-red-700">
                      {errors.answers[i]?.message}
                    </p>
                  )}
                </fieldset>
              </li>
            ))}
          </ol>
          <TextAreaField
            className="mt-6"
            label={DOCUMENT_MESSAGES.detailsLabel}
            optional
            error={errors.details?.message}
            {...register('details')}
          />
          <label className="mt-6 flex items-start gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
            <input type="checkbox" {...register('consent')} className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600" />
            <span>
              {dependantName ? DOCUMENT_MESSAGES.childConsentLabel(dependantName) : DOCUMENT_MESSAGES.consentLabel}{' '}
              <Link to={paths.legal.href('privacy')} className="font-medium text-brand-700 underline">
                Privacy Notice
              </Link>
            </span>
          </label>
          {errors.consent && <p className="mt-1 text-sm font-medium text-red-700">{errors.consent.message}</p>}
        </Card>
      )}

      <Card>
        <TextField
          label={DOCUMENT_MESSAGES.signatureLabel}
          autoComplete="name"
          required
          error={errors.signature?.message}
          hint={account && !ownName ? DOCUMENT_MESSAGES.accountNameMissing : undefined}
          {...register('signature')}
        />
        <p className="mt-2 text-sm text-slate-500">Typing your name here is your signature, dated today.</p>
        <Button type="submit" className="mt-4" loading={sign.isPending || saveName.isPending}>
          {sign.isPending || saveName.isPending ? DOCUMENT_MESSAGES.submitting : submitLabel}
        </Button>
      </Card>
    </form>
  );
}
