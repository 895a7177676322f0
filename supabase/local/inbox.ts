import { randomUUID } from 'node:crypto';

export interface Email {
  id: string;
  to: string;
  subject: string;
  html: string;
  /** Every link in the email, in order (what tests and the /inbox page use). */
  links: string[];
  sentAt: string;
}

/** The dev mailbox: every email the stack "sends" lands here instead of on a mail server. */
export class Inbox {
  private emails: Email[] = [];

  send(to: string, subject: string, html: string): Email {
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? ''));
    const email: Email = { id: randomUUID(), to, subject, html, links, sentAt: new Date().toISOString() };
    this.emails.push(email);
    return email;
  }

  /** Newest first. */
  list(): Email[] {
    return [...this.emails].reverse();
  }

  clear(): void {
    this.emails = [];
  }
}

function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderInboxPage(emails: Email[]): string {
  const rows = emails
    .map(
      (e) => `<article>
  <header><strong>${escapeHtml(e.subject)}</strong> to <span class="to">${escapeHtml(e.to)}</span>
  <time datetime="${e.sentAt}">${escapeHtml(new Date(e.sentAt).toLocaleString('en-GB', { timeZone: 'Europe/London' }))}</time></header>
  <div class="body">${e.html}</div>
  <ul>${e.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local inbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;gap:.5rem;flex-wrap:wrap}
time{margin-left:auto;color:#666}ul{padding-left:1.2rem;word-break:break-all}.body{margin:.5rem 0}</style></head>
<body><h1>Local inbox</h1><p>Emails the local stack sent (newest first). Nothing here leaves this machine.
<a href="/inbox">Refresh</a></p>
${rows || '<p>No emails yet.</p>'}
</body></html>`;
}
