import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../../netlify/lib/escape-html';
import { readBody, sendJson } from '../http-util';
import type { LocalSmsService, LocalText } from './sms-service';

/**
 * The local SMS provider's HTTP side, beside the dev inbox and without CORS headers (another site
 * open in the browser cannot read people's texts):
 *   POST /sms/2010-04-01/Accounts/<sid>/Messages.json   Twilio's Messages API (form-encoded)
 *   GET  /sms, /sms.json                                the texts it accepted (newest first)
 */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export function renderSmsPage(texts: LocalText[]): string {
  const items = texts.map(
    (t) => `<article><header><strong>To ${escapeHtml(t.to)}</strong><time>${escapeHtml(t.date_created)}</time></header>
<p>${escapeHtml(t.body).replace(/\n/g, '<br>')}</p><p class="meta">from ${escapeHtml(t.from)} · ${escapeHtml(t.sid)}</p></article>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local texts</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;gap:.5rem;align-items:baseline}
time{margin-left:auto;color:#666}.meta{font-size:13px;color:#555;word-break:break-all}</style></head>
<body><h1>Local texts</h1><p>Texts the local SMS provider accepted (newest first). Nothing here leaves this machine.
<a href="/sms">Refresh</a></p>
${items.join('\n') || '<p>No texts yet.</p>'}
</body></html>`;
}

/** Answers the paths above; returns false for any other. */
export async function handleSms(req: IncomingMessage, res: ServerResponse, path: string, service: LocalSmsService): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method === 'GET' && (path === '/sms' || path === '/sms/')) {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PAGE_CSP,
      'x-frame-options': 'DENY',
    });
    res.end(renderSmsPage(service.list()));
    return true;
  }
  if (method === 'GET' && path === '/sms.json') {
    sendJson(res, 200, service.list(), { 'cache-control': 'no-store' });
    return true;
  }
  const send = /^\/sms\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
  if (method === 'POST' && send) {
    const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
    const answer = service.send(decodeURIComponent(send[1]!), req.headers.authorization, form);
    sendJson(res, answer.status, answer.body);
    return true;
  }
  return false;
}
