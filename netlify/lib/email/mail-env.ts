import { ConfigError } from '../server-env';

/** The mail settings of the functions and the local stack: one SMTP server, one sender address. */
export type MailEnv = {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465. */
  smtpUrl: string;
  /** The From header, e.g. `Finer Fitness <hello@finerfitness.example>`. */
  from: string;
};

export function readMailEnv(source: Record<string, string | undefined> = process.env): MailEnv {
  const smtpUrl = source.SMTP_URL?.trim() ?? '';
  const from = source.MAIL_FROM?.trim() ?? '';
  if (!smtpUrl || !from) throw new ConfigError('SMTP_URL and MAIL_FROM must be set to deliver emails');
  let protocol: string;
  try {
    protocol = new URL(smtpUrl).protocol;
  } catch {
    throw new ConfigError('SMTP_URL must be a URL like smtp://user:password@smtp.example.com:587');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  }
  return { smtpUrl, from };
}
