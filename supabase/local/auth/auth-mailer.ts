import { toPlainText } from '@react-email/render';
import { readFileSync } from 'node:fs';
import type { Transporter } from 'nodemailer';
import { AUTH_TEMPLATES } from '../../../netlify/lib/email/auth-templates';
import type { AuthEmailKind } from '../../../netlify/lib/email/templates/auth-email';
import { repoRoot } from '../config';
import { escapeHtml } from '../../../netlify/lib/escape-html';

export type AuthEmailVars = {
  confirmationUrl: string;
  email: string;
  newEmail?: string;
  siteUrl: string;
  /** `{{ .TokenHash }}`: by default the `token` of the confirmation URL, which GoTrue builds from it. */
  tokenHash?: string;
  /** `{{ .RedirectTo }}`: by default the confirmation URL's `redirect_to`. */
  redirectTo?: string;
};

/**
 * The local auth's emails: the committed supabase/templates/*.html (what hosted Supabase Auth
 * sends) with GoTrue's variables filled in, sent through SMTP to the local mail server like every
 * other email. A variable this filler does not know fails loudly rather than reaching the inbox raw.
 *
 * As in GoTrue's mailer (internal/mailer/templatemailer), `{{ .TokenHash }}` is the very token the
 * `{{ .ConfirmationURL }}` carries (`/verify?token=<TokenHash>&type=…&redirect_to=<RedirectTo>`):
 * a template may link to the site with it for `verifyOtp({ token_hash, type })` instead.
 */
export function fillAuthTemplate(template: string, vars: AuthEmailVars): string {
  const link = new URL(vars.confirmationUrl);
  const values: Record<string, string | undefined> = {
    ConfirmationURL: vars.confirmationUrl,
    Email: vars.email,
    NewEmail: vars.newEmail,
    SiteURL: vars.siteUrl,
    TokenHash: vars.tokenHash ?? link.searchParams.get('token') ?? undefined,
    RedirectTo: vars.redirectTo ?? link.searchParams.get('redirect_to') ?? undefined,
  };
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`The auth email template uses {{ .${name} }}, which the local auth does not provide`);
    return escapeHtml(value);
  });
}

export class AuthMailer {
  private readonly templates = new Map<AuthEmailKind, string>();

  constructor(
    private readonly transport: () => Pick<Transporter, 'sendMail'>,
    private readonly from: string,
  ) {}

  private template(kind: AuthEmailKind): { subject: string; html: string } {
    const entry = AUTH_TEMPLATES.find((t) => t.kind === kind)!;
    let html = this.templates.get(kind);
    if (!html) {
      html = readFileSync(`${repoRoot}${entry.file}`, 'utf8');
      this.templates.set(kind, html);
    }
    return { subject: entry.subject, html };
  }

  async send(kind: AuthEmailKind, to: string, vars: AuthEmailVars): Promise<void> {
    const { subject, html: template } = this.template(kind);
    const html = fillAuthTemplate(template, vars);
    await this.transport().sendMail({ from: this.from, to, subject, html, text: toPlainText(html) });
  }
}
