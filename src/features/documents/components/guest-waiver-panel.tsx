import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { formatClassDateTime } from '@/lib/studio-time';
import { useGuestWaiver, useSignGuestWaiver, type GuestWaiver } from '../api/guest-waiver';
import { DOCUMENT_MESSAGES, DOCUMENT_NAMES, GUEST_WAIVER_MESSAGES as TEXT, versionLine } from '../lib/document-words';
import { guestWaiverRefusal, guestWaiverSchema, isGuestLinkGone, type GuestWaiverValues } from '../lib/guest-waiver-form';
import { DocumentText } from './document-text';

/**
 * /guest/waiver?token=…: a guest (no account) reads the studio's current waiver and signs it with
 * their typed full name before their class, from the link in their guest email.
 */
export function GuestWaiverPanel({ token }: { token: string }) {
  const waiver = useGuestWaiver(token);
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-12">
      <Card className="p-5 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{TEXT.title}</h1>
        {!token ? (
          <p role="alert" className="mt-4 text-red-700">
            {TEXT.incompleteLink}
          </p>
        ) : waiver.isPending ? (
          <Spinner label={TEXT.loading} />
        ) : waiver.isError ? (
          <LoadError error={waiver.error} onRetry={() => void waiver.refetch()} />
        ) : (
          <GuestWaiverBody token={token} waiver={waiver.data} />
        )}
        <Link to={paths.schedule} className="mt-6 inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline">
          See the class schedule
        </Link>
      </Card>
    </section>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (isGuestLinkGone(error)) {
    return (
      <div role="alert" className="mt-4">
        <h2 className="text-lg font-semibold text-slate-900">{TEXT.linkGone}</h2>
        <p className="mt-2 text-slate-700">{guestWaiverRefusal(error)}</p>
        <p className="mt-2 text-slate-700">{TEXT.linkGoneHelp}</p>
      </div>
    );
  }
  return (
    <div className="mt-4">
      <p role="alert" className="text-red-700">
        {TEXT.loadFailed}
      </p>
      <Button variant="outline" className="mt-4" onClick={onRetry}>
        {TEXT.tryAgain}
      </Button>
    </div>
  );
}

function GuestWaiverBody({ token, waiver }: { token: string; waiver: GuestWaiver }) {
  const [signedNow, setSignedNow] = useState(false);
  const when = formatClassDateTime(new Date(waiver.start_time));
  if (!waiver.document_id || !waiver.body) {
    return <p className="mt-4 text-slate-700">{TEXT.noWaiver(waiver.host_name, waiver.class_name, when)}</p>;
  }
  if (waiver.signed_at) return <Signed waiver={waiver} when={when} focus={signedNow} />;
  return (
    <>
      <p className="mt-4 text-slate-700">{TEXT.intro(waiver.host_name, waiver.class_name, when)}</p>
      <h2 className="mt-6 text-lg font-semibold text-slate-900">{waiver.title}</h2>
      <p className="text-sm text-slate-500">Version {waiver.version}</p>
      <div
        role="region"
        aria-label={waiver.title ?? DOCUMENT_NAMES.waiver}
        tabIndex={0}
        className="mt-3 max-h-[50vh] overflow-y-auto rounded-lg border border-slate-200 p-4 focus:outline-none focus:ring-2 focus:ring-brand-200"
      >
        <DocumentText body={waiver.body} />
      </div>
      <SignForm token={token} documentId={waiver.document_id} defaultName={waiver.guest_name} onSigned={() => setSignedNow(true)} />
    </>
  );
}

type SignFormProps = { token: string; documentId: string; defaultName: string; onSigned: () => void };

function SignForm({ token, documentId, defaultName, onSigned }: SignFormProps) {
  const sign = useSignGuestWaiver(onSigned);
  const { register, handleSubmit, formState } = useForm<GuestWaiverValues>({
    resolver: zodResolver(guestWaiverSchema),
    defaultValues: { accepted: false, signature: defaultName },
  });
  const errors = formState.errors;
  const refusal = sign.error ? (guestWaiverRefusal(sign.error) ?? TEXT.signFailed) : null;

  const submit = handleSubmit((values) => {
    if (sign.isPending) return;
    sign.mutate({ token, signedName: values.signature.trim(), documentId });
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mt-6 space-y-5">
      <div>
        <label className="flex items-start gap-3 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            {...register('accepted')}
            aria-invalid={errors.accepted ? true : undefined}
            aria-describedby={errors.accepted ? 'guest-waiver-accept-error' : undefined}
            className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
          />
          {DOCUMENT_MESSAGES.accept(DOCUMENT_NAMES.waiver)}
        </label>
        {errors.accepted && (
          <p id="guest-waiver-accept-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.accepted.message}
          </p>
        )}
      </div>
      <TextField
        label={DOCUMENT_MESSAGES.signatureLabel}
        autoComplete="name"
        required
        hint={TEXT.signatureHint}
        error={errors.signature?.message}
        {...register('signature')}
      />
      {refusal && (
        <p role="alert" className="text-red-700">
          {refusal}
        </p>
      )}
      <Button type="submit" className="w-full sm:w-auto" loading={sign.isPending}>
        {sign.isPending ? DOCUMENT_MESSAGES.submitting : TEXT.submit}
      </Button>
    </form>
  );
}

function Signed({ waiver, when, focus }: { waiver: GuestWaiver; when: string; focus: boolean }) {
  // Signing replaces the form with this: focus moves here, so a screen reader hears it at once.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="mt-4 rounded-lg bg-green-50 p-4 text-green-900 focus:outline-none">
      <h2 className="text-lg font-semibold">{TEXT.signedTitle}</h2>
      <p className="mt-1">
        {waiver.title}: {versionLine(waiver.version ?? 1, waiver.signed_at)}, as {waiver.signed_name}.
      </p>
      <p className="mt-1">{TEXT.signed(waiver.class_name, when)}</p>
    </div>
  );
}
