import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** A slow or silent server fails the attempt (the email is retried later) well inside a run. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 15_000;

/**
 * SMTP_URL as nodemailer options: smtp://user:pass@host:587 (STARTTLS when the server offers it),
 * smtps://user:pass@host:465 (TLS from the start). User and password may be percent-encoded.
 */
export function smtpOptions(smtpUrl: string): SMTPTransport.Options & { pool: true; maxConnections: number } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    // One connection reused for the whole run (a new one per email is a handshake, and TLS, each).
    pool: true,
    maxConnections: 1,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  };
}

/** One SMTP connection for a run (any provider, or the local stack's server). Close it when done. */
export function createSmtpTransport(smtpUrl: string): Transporter<SMTPTransport.SentMessageInfo> {
  return nodemailer.createTransport(smtpOptions(smtpUrl));
}
