import { STUDIO } from '@/config/studio';

/** The Contact Us form (spec section 5: name, email, message required; phone optional). */
export type ContactForm = { name: string; email: string; phone: string; message: string };
export type ContactErrors = Partial<Record<keyof ContactForm, string>>;

export const EMPTY_CONTACT_FORM: ContactForm = { name: '', email: '', phone: '', message: '' };

/** Long enough for a real enquiry, short enough for every mail app to accept the mailto link. */
export const CONTACT_MESSAGE_MAX = 1500;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateContactForm(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  if (!form.name.trim()) errors.name = 'Name is required';
  if (!form.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL.test(form.email.trim())) errors.email = 'Please enter a valid email address';
  if (!form.message.trim()) errors.message = 'Message is required';
  return errors;
}

/**
 * There is no backend endpoint for enquiries yet, so the form hands the message to the visitor's
 * own mail app, addressed to the studio: a mailto link with subject and body filled in.
 */
export function contactMailto(form: ContactForm, topic: string | null): string {
  const subject = topic ? `${topic} enquiry from ${form.name.trim()}` : `Enquiry from ${form.name.trim()}`;
  const body = [
    form.message.trim(),
    '',
    '---',
    `Name: ${form.name.trim()}`,
    `Email: ${form.email.trim()}`,
    ...(form.phone.trim() ? [`Phone: ${form.phone.trim()}`] : []),
  ].join('\n');
  return `mailto:${STUDIO.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
