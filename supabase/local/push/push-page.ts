import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../../netlify/lib/escape-html';
import { readBody, sendJson } from '../http-util';
import type { LocalPushService, ReceivedPush } from './push-service';

/**
 * The local push service's HTTP side, beside the dev inbox and, like it, without CORS headers
 * (another site open in the browser cannot read it):
 *   POST   /push/v1/subscriptions        a browser-less subscription (endpoint and keys), 201; for the
 *                                         body's { applicationServerKey }, else the stack's VAPID key
 *   DELETE /push/v1/subscriptions/<id>   forget it: later pushes to it get 410 Gone
 *   POST   /push/v1/send/<id>            a push service's endpoint (RFC 8030): 201, 400, 410
 *   GET    /push, /push.json             what it received, decrypted (newest first)
 */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
/** Push services refuse bodies over 4 KB (RFC 8030 section 7.2 lets them). */
const MAX_PUSH_BYTES = 4096;

function describe(push: ReceivedPush): { title: string; body: string; path: string } {
  try {
    const parsed = JSON.parse(push.payload) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return { title: text(parsed.title), body: text(parsed.body), path: text(parsed.path) };
  } catch {
    return { title: '(not JSON)', body: push.payload, path: '' };
  }
}

export function renderPushPage(pushes: ReceivedPush[]): string {
  const items = pushes.map((p) => {
    const d = describe(p);
    return `<article><header><strong>${escapeHtml(d.title)}</strong><time datetime="${escapeHtml(p.receivedAt)}">${escapeHtml(new Date(p.receivedAt).toLocaleString('en-GB', { timeZone: 'Europe/London' }))}</time></header>
<p>${escapeHtml(d.body)}</p><p class="meta">opens ${escapeHtml(d.path)} · subscription ${escapeHtml(p.subscriptionId)} · TTL ${p.ttl}s · urgency ${escapeHtml(p.urgency ?? 'normal')} · from ${escapeHtml(p.sender)}</p></article>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local pushes</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;gap:.5rem;align-items:baseline}
time{margin-left:auto;color:#666}.meta{font-size:13px;color:#555;word-break:break-all}</style></head>
<body><h1>Local pushes</h1><p>Pushes the local push service received and decrypted (newest first). Nothing here leaves this machine.
<a href="/push">Refresh</a></p>
${items.join('\n') || '<p>No pushes yet.</p>'}
</body></html>`;
}

/** Answers the paths above; returns false for any other. */
export async function handlePush(req: IncomingMessage, res: ServerResponse, path: string, service: LocalPushService): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method === 'GET' && (path === '/push' || path === '/push/')) {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PAGE_CSP,
      'x-frame-options': 'DENY',
    });
    res.end(renderPushPage(service.list()));
    return true;
  }
  if (method === 'GET' && path === '/push.json') {
    sendJson(res, 200, service.list(), { 'cache-control': 'no-store' });
    return true;
  }
  if (method === 'POST' && path === '/push/v1/subscriptions') {
    // As a browser subscribes: for the VAPID public key given, else the stack's own.
    const body = (await readBody(req, 1024)).toString('utf8').trim();
    let key: unknown;
    try {
      key = body ? (JSON.parse(body) as { applicationServerKey?: unknown }).applicationServerKey : undefined;
    } catch {
      key = null;
    }
    if (key !== undefined && (typeof key !== 'string' || !/^[A-Za-z0-9_-]{86,88}$/.test(key))) {
      sendJson(res, 400, { message: 'applicationServerKey must be a VAPID public key (base64url)' });
      return true;
    }
    sendJson(res, 201, service.subscribe(key));
    return true;
  }
  const forget = /^\/push\/v1\/subscriptions\/([0-9a-f-]{36})$/.exec(path);
  if (method === 'DELETE' && forget) {
    sendJson(res, service.unsubscribe(forget[1]!) ? 200 : 404, {});
    return true;
  }
  const send = /^\/push\/v1\/send\/([0-9a-f-]{36})$/.exec(path);
  if (method === 'POST' && send) {
    const body = await readBody(req, MAX_PUSH_BYTES + 1);
    if (body.length > MAX_PUSH_BYTES) {
      sendJson(res, 413, { message: 'Payload too large' });
      return true;
    }
    const answer = service.receive(send[1]!, req.headers, body);
    sendJson(res, answer.status, { message: answer.message });
    return true;
  }
  return false;
}
