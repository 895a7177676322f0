import type { AddressObject } from 'mailparser';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Inbox } from './inbox';

export interface SmtpInbox {
  port: number;
  /** SMTP_URL for senders: smtp://127.0.0.1:<port>. */
  url: string;
  stop(): Promise<void>;
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list
    .flatMap((a) => a.value.map((v) => v.address ?? ''))
    .filter(Boolean)
    .join(', ');
}

/**
 * The local stack's mail server: a real SMTP server on loopback (npm smtp-server) whose messages
 * are parsed (mailparser) into the dev inbox, one entry per envelope recipient. The outbox sender
 * and the auth emails reach it through nodemailer, exactly as production mail reaches a provider.
 * No TLS, any or no login: it only listens on 127.0.0.1.
 */
export async function startSmtpInbox(inbox: Inbox, options: { port?: number } = {}): Promise<SmtpInbox> {
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'local' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const headers: Record<string, string> = {};
          for (const line of mail.headerLines)
            headers[line.key] = line.line
              .slice(line.line.indexOf(':') + 1)
              .replace(/\r?\n[ \t]+/g, ' ')
              .trim();
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          for (const to of recipients.length ? recipients : [addressText(mail.to)]) {
            inbox.receive({
              from: addressText(mail.from),
              to,
              replyTo: addressText(mail.replyTo) || null,
              subject: mail.subject ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              text: mail.text ?? '',
              headers,
            });
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    // SMTPServer re-emits its socket's errors (EADDRINUSE) as its own 'error' event.
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
  });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
