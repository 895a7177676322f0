import { useRef, useState, type FormEvent } from 'react';
import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { TextAreaField, TextField } from '@/components/ui/field';
import { MAILTO_URL, STUDIO, WHATSAPP_URL } from '@/config/studio';
import { CONTACT_MESSAGE_MAX, contactMailto, EMPTY_CONTACT_FORM, validateContactForm, type ContactErrors, type ContactForm } from './contact-form';
import { openMailto } from './open-mailto';

type Props = {
  open: boolean;
  onClose: () => void;
  /** What the enquiry is about (a plan name), used in the email subject. */
  topic: string | null;
};

const FIELD_ORDER: Array<keyof ContactForm> = ['name', 'email', 'phone', 'message'];

export function ContactUsModal({ open, onClose, topic }: Props) {
  return (
    <Modal open={open} onClose={onClose} title="Contact Us" description={topic ? `About: ${topic}` : undefined}>
      <ContactUsForm topic={topic} onClose={onClose} />
    </Modal>
  );
}

/** Mounted only while the modal is open, so it always starts empty. */
function ContactUsForm({ topic, onClose }: Omit<Props, 'open'>) {
  const [form, setForm] = useState<ContactForm>(EMPTY_CONTACT_FORM);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [handedOff, setHandedOff] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = (key: keyof ContactForm) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: event.target.value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateContactForm(form);
    setErrors(found);
    const first = FIELD_ORDER.find((key) => found[key]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    openMailto(contactMailto(form, topic));
    setHandedOff(true);
  }

  if (handedOff) {
    return (
      <div role="status" className="space-y-4 text-slate-700">
        <MailCheck aria-hidden="true" className="h-10 w-10 text-green-600" />
        <p className="font-semibold text-slate-900">Your email app should now be open with your message ready to send.</p>
        <p className="text-sm">
          Your message is only sent when you press send in your email app. If nothing opened, email us at{' '}
          <a href={MAILTO_URL} className="font-semibold text-brand-700 underline">
            {STUDIO.email}
          </a>{' '}
          or{' '}
          <a href={WHATSAPP_URL} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline">
            message us on WhatsApp
          </a>
          .
        </p>
        <Button onClick={onClose} className="w-full sm:w-auto">
          Done
        </Button>
      </div>
    );
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4">
      <TextField label="Name" name="name" autoComplete="name" value={form.name} onChange={set('name')} error={errors.name} required />
      <TextField label="Email" name="email" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={errors.email} required />
      <TextField label="Phone" name="phone" type="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} optional />
      <TextAreaField
        label="Message"
        name="message"
        value={form.message}
        onChange={set('message')}
        error={errors.message}
        maxLength={CONTACT_MESSAGE_MAX}
        rows={5}
        required
      />
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">
        We don't have an online inbox for this form yet: sending opens your own email app with this message addressed to {STUDIO.email}, ready for
        you to send.
      </p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Send via email</Button>
      </div>
    </form>
  );
}
