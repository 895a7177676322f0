import { EMAIL_BRAND } from './brand';
import { render } from '@react-email/render';
import { createElement } from 'react';
import { AuthEmailTemplate, type AuthEmailKind } from './templates/auth-email';

/** The Supabase Auth templates, their files and subjects (wired in supabase/config.toml). */
export const AUTH_TEMPLATES: ReadonlyArray<{ kind: AuthEmailKind; file: string; subject: string }> = [
  { kind: 'confirmation', file: 'supabase/templates/confirmation.html', subject: `Confirm your email for ${EMAIL_BRAND.name}` },
  { kind: 'recovery', file: 'supabase/templates/recovery.html', subject: `Reset your ${EMAIL_BRAND.name} password` },
  { kind: 'email_change', file: 'supabase/templates/email_change.html', subject: `Confirm your new email for ${EMAIL_BRAND.name}` },
  { kind: 'invite', file: 'supabase/templates/invite.html', subject: `You're invited to book with ${EMAIL_BRAND.name}` },
];

/** One template's HTML, with GoTrue's `{{ .Variables }}` in place. */
export function renderAuthTemplate(kind: AuthEmailKind): Promise<string> {
  return render(createElement(AuthEmailTemplate, { kind }));
}
