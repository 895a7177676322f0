import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../../netlify/lib/escape-html';
import { readBody, sendJson } from '../http-util';
import type { Delivery, LocalGoCardlessService } from './gocardless-service';

/**
 * The local GoCardless's HTTP side (decision 0076), beside /inbox and /sms, without CORS headers:
 *   /gocardless/billing_requests, /billing_request_flows, /payments, GET /mandates/<id> ...  the API
 *   GET/POST /gocardless/flow/<id>     the hosted page where a member sets up the Direct Debit
 *   GET /gocardless, POST /gocardless/act   the test controls: submit, confirm, pay out, fail,
 *                                      charge back a payment; activate or cancel a mandate; pay a
 *                                      refund, make it fail or return its funds; replay
 *   GET /gocardless.json               mandates, payments, refunds and webhook deliveries
 */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:* http://localhost:*; base-uri 'none'; frame-ancestors 'none'";

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': PAGE_CSP,
    'x-frame-options': 'DENY',
  });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} (TEST - no real Direct Debit)</title>
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111}
.banner{background:#fde047;border:2px dashed #a16207;padding:.75rem 1rem;font-weight:700}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}input{font-size:1rem;padding:.5rem;width:100%;max-width:20rem}
button{font-size:.95rem;padding:.45rem .9rem;border-radius:.4rem;border:1px solid #333;cursor:pointer;margin:.15rem}
.primary{background:#15803d;color:#fff;border-color:#15803d}.danger{color:#b91c1c;border-color:#b91c1c;background:#fff}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
form.inline{display:inline}.error{color:#b91c1c;font-weight:600}code{word-break:break-all}</style></head>
<body><p class="banner" role="note">TEST DIRECT DEBIT: local development only. No bank account is debited and no money moves.</p>
<h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}

function flowForm(flowId: string, customer: Record<string, string>, message = ''): string {
  const name = [customer.given_name, customer.family_name].filter(Boolean).join(' ');
  return `${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<p>Set up a Direct Debit for ${escapeHtml(customer.email ?? 'the member')}. Test details that work: sort code <code>200000</code>,
account number <code>55779911</code>.</p>
<form method="post" action="/gocardless/flow/${escapeHtml(flowId)}">
<label for="name">Account holder name</label><input id="name" name="name" autocomplete="name" value="${escapeHtml(name)}" required>
<label for="sort_code">Sort code</label><input id="sort_code" name="sort_code" inputmode="numeric" value="200000" required>
<label for="account_number">Account number</label><input id="account_number" name="account_number" inputmode="numeric" value="55779911" required>
<p>By confirming you set up a Direct Debit Instruction covered by the Direct Debit Guarantee.</p>
<button type="submit" name="action" value="confirm" class="primary">Set up Direct Debit</button>
<button type="submit" name="action" value="exit" class="danger" formnovalidate>Cancel</button>
</form>`;
}

function deliveryRow(d: Delivery, index: number): string {
  const events = d.events.map((e) => `${e.resource_type}.${e.action} ${Object.values(e.links).join(' ')}`).join('<br>');
  return `<tr><td>${escapeHtml(d.at)}</td><td><code>${events}</code></td><td>${d.status ?? 'no answer'} ${escapeHtml(d.detail)}</td>
<td><form class="inline" method="post" action="/gocardless/act"><input type="hidden" name="kind" value="delivery"><input type="hidden" name="id" value="${index}">
<button type="submit" name="action" value="replay">Send again</button></form></td></tr>`;
}

function controls(service: LocalGoCardlessService, message: string): string {
  const button = (kind: string, rid: string, action: string, label: string, cls = '') =>
    `<form class="inline" method="post" action="/gocardless/act"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${escapeHtml(rid)}"><button type="submit" name="action" value="${action}" class="${cls}">${label}</button></form>`;
  const mandates = [...service.mandates.values()].reverse().map(
    (
      m,
    ) => `<tr><td><code>${escapeHtml(m.id)}</code></td><td>${escapeHtml(m.account_holder_name)} ••${escapeHtml(m.account_number_ending)}</td>
<td>${escapeHtml(m.status)}</td><td>${escapeHtml(m.next_possible_charge_date)}</td>
<td>${button('mandate', m.id, 'activate', 'Activate')}${button('mandate', m.id, 'cancel', 'Cancel mandate', 'danger')}</td></tr>`,
  );
  const payments = [...service.payments.values()].reverse().map(
    (p) => `<tr><td><code>${escapeHtml(p.id)}</code></td><td>£${(p.amount / 100).toFixed(2)} ${escapeHtml(p.description ?? '')}</td>
<td>${escapeHtml(p.status)}${p.amount_refunded > 0 ? ` (£${(p.amount_refunded / 100).toFixed(2)} refunded)` : ''}</td><td>${escapeHtml(p.charge_date)}</td>
<td>${button('payment', p.id, 'submit', 'Submit')}${button('payment', p.id, 'confirm', 'Confirm')}${button('payment', p.id, 'pay_out', 'Pay out')}${button('payment', p.id, 'fail', 'Fail', 'danger')}${button('payment', p.id, 'charge_back', 'Charge back', 'danger')}</td></tr>`,
  );
  const refunds = [...service.refunds.values()].reverse().map(
    (
      r,
    ) => `<tr><td><code>${escapeHtml(r.id)}</code></td><td>£${(r.amount / 100).toFixed(2)} of <code>${escapeHtml(r.links.payment)}</code></td>
<td>${escapeHtml(r.status)}</td>
<td>${button('refund', r.id, 'pay', 'Pay')}${button('refund', r.id, 'fail', 'Fail', 'danger')}${button('refund', r.id, 'return_funds', 'Return funds', 'danger')}</td></tr>`,
  );
  return `${message ? `<p role="status">${escapeHtml(message)}</p>` : ''}
<p>What Bacs does over days happens here when you press a control; each sends GoCardless's signed webhook to the studio.
<a href="/gocardless">Refresh</a></p>
<h2>Mandates</h2><table><thead><tr><th>Mandate</th><th>Account</th><th>Status</th><th>Next possible charge</th><th>Controls</th></tr></thead>
<tbody>${mandates.join('') || '<tr><td colspan="5">No mandates yet.</td></tr>'}</tbody></table>
<h2>Payments</h2><table><thead><tr><th>Payment</th><th>Amount</th><th>Status</th><th>Charge date</th><th>Controls</th></tr></thead>
<tbody>${payments.join('') || '<tr><td colspan="5">No payments yet.</td></tr>'}</tbody></table>
<h2>Refunds</h2><table><thead><tr><th>Refund</th><th>Amount</th><th>Status</th><th>Controls</th></tr></thead>
<tbody>${refunds.join('') || '<tr><td colspan="4">No refunds yet.</td></tr>'}</tbody></table>
<h2>Webhooks sent</h2><table><thead><tr><th>When</th><th>Events</th><th>Answer</th><th></th></tr></thead>
<tbody>${service.deliveries.map(deliveryRow).join('') || '<tr><td colspan="4">None yet.</td></tr>'}</tbody></table>`;
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Answers the paths above; returns false for any other. */
export async function handleGoCardless(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  service: LocalGoCardlessService,
): Promise<boolean> {
  if (path !== '/gocardless' && path !== '/gocardless.json' && !path.startsWith('/gocardless/')) return false;
  const method = req.method ?? 'GET';
  if (method === 'GET' && (path === '/gocardless' || path === '/gocardless/')) {
    page(res, 200, 'Local GoCardless', controls(service, ''));
    return true;
  }
  if (method === 'GET' && path === '/gocardless.json') {
    sendJson(
      res,
      200,
      {
        mandates: [...service.mandates.values()],
        payments: [...service.payments.values()],
        refunds: [...service.refunds.values()],
        deliveries: service.deliveries,
      },
      {
        'cache-control': 'no-store',
      },
    );
    return true;
  }
  const flow = /^\/gocardless\/flow\/([A-Z0-9]+)$/.exec(path);
  if (flow) {
    const found = service.flow(flow[1]!);
    if (!found) {
      page(
        res,
        404,
        'Direct Debit setup not found',
        '<p>This Direct Debit setup does not exist (the local stack may have been restarted).</p>',
      );
      return true;
    }
    if (method === 'GET') {
      page(
        res,
        200,
        'Set up a Direct Debit',
        found.request.status === 'pending' ? flowForm(flow[1]!, found.flow.prefilled_customer) : '<p>This setup is finished.</p>',
      );
      return true;
    }
    const form = new URLSearchParams((await readBody(req, 16 * 1024)).toString('utf8'));
    if (form.get('action') === 'exit') {
      res.writeHead(303, { location: found.flow.exit_uri ?? '/' });
      res.end();
      return true;
    }
    const result = service.fulfil(flow[1]!, {
      name: form.get('name') ?? '',
      sortCode: form.get('sort_code') ?? '',
      accountNumber: form.get('account_number') ?? '',
    });
    if (typeof result === 'string') {
      page(res, 400, 'Set up a Direct Debit', flowForm(flow[1]!, found.flow.prefilled_customer, result));
      return true;
    }
    const delivery = await service.deliver(result.events);
    if (delivery.status === null || delivery.status >= 300) {
      page(
        res,
        502,
        'Set up a Direct Debit',
        `<p class="error" role="alert">The studio's webhook answered ${escapeHtml(String(delivery.status ?? delivery.detail))}.</p>
<p><a href="${escapeHtml(result.redirect ?? '/')}">Back to the studio</a></p>`,
      );
      return true;
    }
    res.writeHead(303, { location: result.redirect ?? '/' });
    res.end();
    return true;
  }
  if (method === 'POST' && path === '/gocardless/act') {
    const form = new URLSearchParams((await readBody(req, 16 * 1024)).toString('utf8'));
    const kind = form.get('kind');
    const rid = form.get('id') ?? '';
    const action = form.get('action') ?? '';
    let message: string;
    if (kind === 'delivery') {
      const d = await service.redeliver(Number(rid));
      message = d ? `Sent again: the webhook answered ${d.status ?? d.detail}.` : 'No such delivery.';
    } else if (kind === 'mandate' || kind === 'payment' || kind === 'refund') {
      const events = service.act(kind, rid, action);
      if (typeof events === 'string') message = events;
      else {
        const d = await service.deliver(events);
        message = `${events.map((e) => `${e.resource_type}.${e.action}`).join(', ')}: the webhook answered ${d.status ?? d.detail}.`;
      }
    } else message = 'Choose a control.';
    page(res, 200, 'Local GoCardless', controls(service, message));
    return true;
  }
  // The API.
  const api = path.slice('/gocardless'.length);
  let body: unknown = null;
  if (method === 'POST') {
    try {
      body = JSON.parse((await readBody(req, 64 * 1024)).toString('utf8') || 'null');
    } catch {
      sendJson(res, 400, {
        error: { message: 'Malformed JSON', type: 'invalid_api_usage', code: 400, errors: [{ reason: 'invalid_document_structure' }] },
      });
      return true;
    }
  }
  const answer = service.api(
    method,
    api,
    {
      authorization: header(req, 'authorization'),
      'gocardless-version': header(req, 'gocardless-version'),
      'idempotency-key': header(req, 'idempotency-key'),
    },
    body,
  );
  sendJson(res, answer.status, answer.body);
  return true;
}
