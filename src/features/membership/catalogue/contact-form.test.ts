import { describe, expect, it } from 'vitest';
import { contactMailto, EMPTY_CONTACT_FORM, validateContactForm } from './contact-form';

describe('validateContactForm', () => {
  it('requires name, email and message but not phone', () => {
    expect(validateContactForm(EMPTY_CONTACT_FORM)).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
  });
  it('treats whitespace as empty and checks the email shape', () => {
    expect(validateContactForm({ name: '  ', email: 'not-an-email', phone: '', message: 'Hi' })).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address',
    });
  });
  it('accepts a complete form without a phone number', () => {
    expect(validateContactForm({ name: 'Sam', email: 'sam@example.com', phone: '', message: 'Hello' })).toEqual({});
  });
});

describe('contactMailto', () => {
  it('addresses the studio with the topic, message and contact details encoded', () => {
    const url = contactMailto({ name: 'Sam Lee', email: 'sam@example.com', phone: '07700 900000', message: 'Am I eligible?\nI study at UCL & work part-time.' }, 'Student / Hackney Worker');
    expect(url.startsWith('mailto:hello@finerfitness.example?')).toBe(true);
    const params = new URLSearchParams(url.split('?')[1]);
    expect(params.get('subject')).toBe('Student / Hackney Worker enquiry from Sam Lee');
    expect(params.get('body')).toBe('Am I eligible?\nI study at UCL & work part-time.\n\n---\nName: Sam Lee\nEmail: sam@example.com\nPhone: 07700 900000');
    // Spaces must be %20 (not +) for mail apps.
    expect(url).not.toContain('+');
  });
  it('leaves the phone line out when none was given', () => {
    const body = new URLSearchParams(contactMailto({ name: 'Sam', email: 's@x.io', phone: ' ', message: 'Hi' }, null).split('?')[1]).get('body');
    expect(body).not.toContain('Phone');
  });
});
