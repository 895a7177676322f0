import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../../../netlify/lib/escape-html';
import type { Email, Inbox } from './inbox';

/**
 * The dev inbox at /inbox: each email's HTML part as a member sees it, in a sandboxed frame (no
 * scripts, no same-origin access, links open in a new tab), with a switch to the text part, the
 * headers that matter and every link. Only this origin may read or frame it: no CORS headers,
 * frame-ancestors 'none' and a same-origin resource policy, so another site open in the browser
 * cannot read people's confirmation links.
 */

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

const LIST_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
// The email document itself: sandboxed even when opened directly, framed only by the inbox page.
const EMAIL_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-ancestors 'self'";

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': type, ...PAGE_HEADERS, ...headers });
  res.end(body);
}

/** The email's HTML as the frame shows it: links open outside the frame, like in a mail app. */
function framedHtml(email: Email): string {
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(email.html) ? email.html.replace(/<head([^>]*)>/i, `<head$1>${base}`) : `${base}${email.html}`;
}

const SHOWN_HEADERS = ['reply-to', 'list-unsubscribe', 'list-unsubscribe-post'];

function article(e: Email): string {
  const id = escapeHtml(e.id);
  const headers = SHOWN_HEADERS.filter((h) => e.headers[h])
    .map((h) => `<dt>${h}</dt><dd>${escapeHtml(e.headers[h]!)}</dd>`)
    .join('');
  return `<article>
  <header><strong>${escapeHtml(e.subject)}</strong><span>from ${escapeHtml(e.from)} to <span class="to">${escapeHtml(e.to)}</span></span>
  <time datetime="${escapeHtml(e.sentAt)}">${escapeHtml(new Date(e.sentAt).toLocaleString('en-GB', { timeZone: 'Europe/London' }))}</time></header>
  ${headers ? `<dl>${headers}</dl>` : ''}
  <div class="parts">
    <input type="radio" name="part-${id}" id="html-${id}" checked${e.html ? '' : ' disabled'}><label for="html-${id}">HTML</label>
    <input type="radio" name="part-${id}" id="text-${id}"${e.html ? '' : ' checked'}><label for="text-${id}">Text</label>
    ${e.html ? `<iframe class="html" title="${escapeHtml(e.subject)}" src="/inbox/${id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox" loading="lazy"></iframe>` : ''}
    <pre class="text">${escapeHtml(e.text || '(no text part)')}</pre>
  </div>
  <ul>${[...new Set(e.links)].map((l) => `<li><a href="${escapeHtml(l)}" target="_blank" rel="noopener noreferrer">${escapeHtml(l)}</a></li>`).join('')}</ul>
</article>`;
}

export function renderInboxPage(emails: Email[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local inbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;gap:.5rem;flex-wrap:wrap;align-items:baseline}
time{margin-left:auto;color:#666}ul{padding-left:1.2rem;word-break:break-all}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem;font-size:13px;color:#555}
dd{margin:0;word-break:break-all}.parts>input{position:absolute;opacity:0}.parts>label{display:inline-block;padding:.3rem .8rem;border:1px solid #ccc;border-radius:6px;margin:.5rem .3rem .5rem 0;cursor:pointer}
.parts>input:checked+label{background:#c2410c;color:#fff;border-color:#c2410c}.parts>input:focus-visible+label{outline:2px solid #222}
iframe{width:100%;height:40rem;border:1px solid #eee;border-radius:6px;display:none}pre{white-space:pre-wrap;background:#f8fafc;padding:1rem;border-radius:6px;display:none}
.parts>input[id^=html]:checked~iframe{display:block}.parts>input[id^=text]:checked~pre{display:block}</style></head>
<body><h1>Local inbox</h1><p>Emails the local stack's SMTP server received (newest first). Nothing here leaves this machine.
<a href="/inbox">Refresh</a></p>
${emails.map(article).join('\n') || '<p>No emails yet.</p>'}
</body></html>`;
}

/** Answers /inbox, /inbox.json and /inbox/<id>/html; returns false for other paths. */
export function handleInbox(res: ServerResponse, path: string, inbox: Inbox): boolean {
  if (path === '/inbox' || path === '/inbox/') {
    send(res, 200, 'text/html; charset=utf-8', renderInboxPage(inbox.list()), {
      'content-security-policy': LIST_CSP,
      'x-frame-options': 'DENY',
    });
    return true;
  }
  if (path === '/inbox.json') {
    send(res, 200, 'application/json; charset=utf-8', JSON.stringify(inbox.list()), {});
    return true;
  }
  const m = /^\/inbox\/([0-9a-f-]{36})\/html$/.exec(path);
  if (m) {
    const email = inbox.get(m[1]!);
    if (!email) send(res, 404, 'text/plain; charset=utf-8', 'No such email', {});
    else
      send(res, 200, 'text/html; charset=utf-8', framedHtml(email), {
        'content-security-policy': EMAIL_CSP,
        'x-frame-options': 'SAMEORIGIN',
      });
    return true;
  }
  return false;
}
