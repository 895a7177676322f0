import { randomUUID } from 'node:crypto';

/** One email as the dev inbox keeps it: what a mail app would show, both parts and the headers. */
export interface Email {
  id: string;
  from: string;
  to: string;
  replyTo: string | null;
  subject: string;
  /** The HTML part ('' when the email had none). */
  html: string;
  /** The plain-text part ('' when the email had none). */
  text: string;
  /** Lower-cased header names, e.g. `list-unsubscribe`. */
  headers: Record<string, string>;
  /** Every link of the HTML part, in order (what tests and the /inbox page use). */
  links: string[];
  sentAt: string;
}

export type ReceivedEmail = Omit<Email, 'id' | 'links' | 'sentAt'>;

/**
 * The dev mailbox: what the local SMTP server (smtp-inbox.ts) received. Nothing reaches it except
 * through SMTP, the way production mail leaves.
 */
export class Inbox {
  private emails: Email[] = [];

  receive(email: ReceivedEmail): Email {
    const links = [...email.html.matchAll(/href="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? ''));
    const stored: Email = { ...email, id: randomUUID(), links, sentAt: new Date().toISOString() };
    this.emails.push(stored);
    return stored;
  }

  /** Newest first. */
  list(): Email[] {
    return [...this.emails].reverse();
  }

  get(id: string): Email | undefined {
    return this.emails.find((e) => e.id === id);
  }

  clear(): void {
    this.emails = [];
  }
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
