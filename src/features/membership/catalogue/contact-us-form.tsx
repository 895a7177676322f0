import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { PostgrestError } from '@supabase/supabase-js';
import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { MAILTO_URL, STUDIO, WHATSAPP_URL } from '@/config/studio';
import {
  CONTACT_MESSAGE_MAX,
  contactMessageSchema,
  EMPTY_CONTACT_MESSAGE,
  useSubmitContactMessage,
  type ContactMessage,
  type ContactMessageForm,
} from '../api/submit-contact-message';

type Props = {
  onClose: () => void;
  /** What the enquiry is about (a plan name), stored with the message and put in its subject. */
  topic: string | null;
};

const CONTACT_MESSAGES = {
  sent: 'Thanks! Your message has reached the studio.',
  failed: `Your message could not be sent. Please try again, or email us at ${STUDIO.email}.`,
} as const;

/** The database's refusals whose message is meant for the visitor (rate limit, invalid input). */
const SHOWN_HINTS = new Set(['contact_rate_limited', 'invalid_contact']);

function errorText(error: unknown): string {
  const e = error as Partial<PostgrestError> | null;
  return e?.hint && SHOWN_HINTS.has(e.hint) && e.message ? e.message : CONTACT_MESSAGES.failed;
}

/** The Contact Us form; mounted only while the modal is open, so it always starts empty. */
export function ContactUsForm({ topic, onClose }: Props) {
  const submitMessage = useSubmitContactMessage();
  const { register, handleSubmit, formState, getValues } = useForm<ContactMessageForm, unknown, ContactMessage>({
    resolver: zodResolver(contactMessageSchema),
    defaultValues: EMPTY_CONTACT_MESSAGE,
    shouldFocusError: true,
  });
  const { errors } = formState;

  const submit = handleSubmit((values) => {
    if (submitMessage.isPending) return;
    submitMessage.mutate({ values, topic });
  });

  if (submitMessage.isSuccess) {
    return (
      <div role="status" className="space-y-4 text-slate-700">
        <MailCheck aria-hidden="true" className="h-10 w-10 text-green-600" />
        <p className="font-semibold text-slate-900">{CONTACT_MESSAGES.sent}</p>
        <p className="text-sm">We'll reply to {getValues('email').trim()}, usually within a day.</p>
        <Button onClick={onClose} className="w-full sm:w-auto">
          Done
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Name" autoComplete="name" error={errors.name?.message} required {...register('name')} />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} required {...register('email')} />
      <TextField label="Phone" type="tel" autoComplete="tel" error={errors.phone?.message} optional {...register('phone')} />
      <TextAreaField
        label="Message"
        error={errors.message?.message}
        maxLength={CONTACT_MESSAGE_MAX}
        rows={5}
        required
        {...register('message')}
      />
      {/* The honeypot: off-screen and out of the tab order and accessibility tree; only bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          Website
          <input type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
        </label>
      </div>
      {submitMessage.isError && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errorText(submitMessage.error)}
        </p>
      )}
      <p className="text-sm text-slate-600">
        Prefer your own app?{' '}
        <a href={MAILTO_URL} className="font-semibold text-brand-700 underline">
          Email {STUDIO.email}
        </a>{' '}
        or{' '}
        <a href={WHATSAPP_URL} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline">
          message us on WhatsApp
        </a>
        .
      </p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={submitMessage.isPending}>
          {submitMessage.isPending ? 'Sending...' : 'Send message'}
        </Button>
      </div>
    </form>
  );
}
