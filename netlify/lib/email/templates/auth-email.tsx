/** @jsxRuntime automatic */
import { Link, Text } from '@react-email/components';
import { EMAIL_BRAND } from '../brand';
import { EmailLayout, PrimaryButton, textStyle } from './email-layout';

/**
 * The Supabase Auth emails in the studio's style. They are rendered once into
 * supabase/templates/*.html (npm run email:templates) with GoTrue's Go-template variables left in
 * place; hosted Supabase Auth fills them in, and so does the local stack's auth.
 */
export type AuthEmailKind = 'confirmation' | 'recovery' | 'email_change';

/** GoTrue's template variables (https://supabase.com/docs/guides/auth/auth-email-templates). */
export const GO_VARS = {
  confirmationUrl: '{{ .ConfirmationURL }}',
  email: '{{ .Email }}',
  newEmail: '{{ .NewEmail }}',
} as const;

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
};

export function AuthEmailTemplate({ kind }: { kind: AuthEmailKind }) {
  const copy = COPY[kind];
  return (
    <EmailLayout preview={copy.heading} heading={copy.heading}>
      {copy.lines.map((line) => (
        <Text key={line} style={textStyle}>
          {line}
        </Text>
      ))}
      <PrimaryButton href={GO_VARS.confirmationUrl}>{copy.button}</PrimaryButton>
      <Text style={{ ...textStyle, fontSize: '14px', color: EMAIL_BRAND.colors.muted }}>
        The button not working? Open this link: <Link href={GO_VARS.confirmationUrl} style={{ color: EMAIL_BRAND.colors.accentDark, wordBreak: 'break-all' }}>{GO_VARS.confirmationUrl}</Link>
      </Text>
      <Text style={{ ...textStyle, fontSize: '14px', color: EMAIL_BRAND.colors.muted, margin: 0 }}>{copy.after}</Text>
    </EmailLayout>
  );
}
