/** @jsxRuntime automatic */
import { Link, Text } from '@react-email/components';
import { EMAIL_BRAND } from '../brand';
import { EmailLayout, PrimaryButton, textStyle } from './email-layout';

/**
 * The Supabase Auth emails in the studio's style. They are rendered once into
 * supabase/templates/*.html (npm run email:templates) with GoTrue's Go-template variables left in
 * place; hosted Supabase Auth fills them in, and so does the local stack's auth.
 */
export type AuthEmailKind = 'confirmation' | 'recovery' | 'email_change' | 'invite';

/** GoTrue's template variables (https://supabase.com/docs/guides/auth/auth-email-templates). */
export const GO_VARS = {
  siteUrl: '{{ .SiteURL }}',
  tokenHash: '{{ .TokenHash }}',
  email: '{{ .Email }}',
  newEmail: '{{ .NewEmail }}',
} as const;

/** The verifyOtp type of each email's link (Supabase's email templates for links opened anywhere). */
export const AUTH_LINK_TYPES: Record<AuthEmailKind, 'email' | 'recovery' | 'email_change' | 'invite'> = {
  confirmation: 'email',
  recovery: 'recovery',
  email_change: 'email_change',
  invite: 'invite',
};

/**
 * Each email's link: the site's /auth/callback with the token hash, which the callback verifies
 * with `supabase.auth.verifyOtp({ token_hash, type })`, so the link works in any browser on any
 * device. Not `{{ .ConfirmationURL }}`: in the PKCE flow that lands with a code only the browser
 * that asked can exchange (reset links opened on a phone used to fail).
 */
export function authEmailLink(kind: AuthEmailKind): string {
  return `${GO_VARS.siteUrl}/auth/callback?token_hash=${GO_VARS.tokenHash}&type=${AUTH_LINK_TYPES[kind]}`;
}

const COPY: Record<AuthEmailKind, { heading: string; lines: string[]; button: string; after: string }> = {
  confirmation: {
    heading: 'Confirm your email',
    lines: [`Welcome to ${EMAIL_BRAND.name}! Confirm ${GO_VARS.email} to finish creating your account and start booking classes.`],
    button: 'Confirm my email',
    after: "If you didn't sign up, ignore this email: no account is created without this confirmation.",
  },
  recovery: {
    heading: 'Reset your password',
    lines: [`Someone (hopefully you) asked to reset the password of ${EMAIL_BRAND.name} account ${GO_VARS.email}.`],
    button: 'Choose a new password',
    after: "If you didn't ask for this, ignore this email: your password stays as it is.",
  },
  email_change: {
    heading: 'Confirm your new email',
    lines: [`You asked to change the email of your ${EMAIL_BRAND.name} account from ${GO_VARS.email} to ${GO_VARS.newEmail}.`],
    button: 'Confirm the change',
    after: "If you didn't ask for this, ignore this email and your account keeps its current address.",
  },
  // Members the studio imported (Admin > Import, "Send invitations"): an invitation, not a reset.
  invite: {
    heading: 'Your studio has moved online',
    lines: [
      `${EMAIL_BRAND.name} now takes bookings here, and your account ${GO_VARS.email} is ready with your plan and the sessions you have left.`,
      'Choose a password to sign in and see them.',
    ],
    button: 'Choose my password',
    after: "If you don't know this studio, ignore this email: nobody can sign in as you without choosing a password here.",
  },
};

export function AuthEmailTemplate({ kind }: { kind: AuthEmailKind }) {
  const copy = COPY[kind];
  const link = authEmailLink(kind);
  return (
    <EmailLayout preview={copy.heading} heading={copy.heading}>
      {copy.lines.map((line) => (
        <Text key={line} style={textStyle}>
          {line}
        </Text>
      ))}
      <PrimaryButton href={link}>{copy.button}</PrimaryButton>
      <Text style={{ ...textStyle, fontSize: '14px', color: EMAIL_BRAND.colors.muted }}>
        The button not working? Open this link:{' '}
        <Link href={link} style={{ color: EMAIL_BRAND.colors.accentDark, wordBreak: 'break-all' }}>
          {link}
        </Link>
      </Text>
      <Text style={{ ...textStyle, fontSize: '14px', color: EMAIL_BRAND.colors.muted, margin: 0 }}>{copy.after}</Text>
    </EmailLayout>
  );
}
