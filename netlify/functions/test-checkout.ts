import { readServerEnv } from '../lib/server-env';
import { findTestCheckout, settleTestCheckout, TEST_CARDS, type TestCard, type TestCheckout } from '../lib/payments/test-provider';
import { activeTestStore, testProviderActive } from '../lib/payments/select-provider';

/**
 * The local test provider's "hosted checkout": a clearly labelled TEST page with Pay and Decline.
 * A card-saving checkout (a plan, "Update card", "Add a card", "Replace card") offers two test
 * cards instead of Pay: one that always pays, one that pays now and declines every later charge
 * (renewals).
 * GET ?id=<checkout id> shows it; POST (form: id, action=pay|decline, card) settles the checkout, then
 * notifies the checkout's return_url exactly as SumUp does ({ event_type, id }, so the webhook
 * verifies by fetching the checkout through the provider interface) and sends the browser to the
 * checkout's redirect_url. Answers 404 whenever the test provider is not the active one.
 */
export default async function testCheckout(req: Request): Promise<Response> {
  let active = false;
  try {
    active = testProviderActive(readServerEnv());
  } catch {
    active = false;
  }
  if (!active) return page(404, 'Not found', '<p>There is no test checkout here.</p>');

  if (req.method === 'GET') {
    const id = new URL(req.url).searchParams.get('id') ?? '';
    const checkout = findTestCheckout(id, Date.now(), activeTestStore());
    if (!checkout)
      return page(404, 'Test checkout not found', '<p>This test checkout does not exist (the local database may have been reset).</p>');
    return page(200, 'Test checkout', checkoutBody(checkout));
  }

  if (req.method === 'POST') {
    const form = await req.formData().catch(() => null);
    const id = formText(form, 'id');
    const action = formText(form, 'action');
    if (action !== 'pay' && action !== 'decline') return page(400, 'Test checkout', '<p>Choose Pay or Decline.</p>');
    const card: TestCard = formText(form, 'card') === 'declinesLater' ? 'declinesLater' : 'alwaysPays';
    const checkout = settleTestCheckout(id, action === 'pay' ? 'PAID' : 'FAILED', activeTestStore(), card);
    if (!checkout) return page(404, 'Test checkout not found', '<p>This test checkout does not exist.</p>');

    const notified = await notify(checkout);
    if (!notified.ok) {
      return page(502, 'Test checkout', `<p>The payment webhook answered ${escapeHtml(notified.detail)}.</p>` + continueLink(checkout));
    }
    return new Response(null, { status: 303, headers: { location: checkout.redirectUrl ?? '/' } });
  }

  return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
}

async function notify(checkout: TestCheckout): Promise<{ ok: boolean; detail: string }> {
  try {
    const res = await fetch(checkout.returnUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: checkout.id }),
      signal: AbortSignal.timeout(15_000),
    });
    return { ok: res.ok, detail: `${res.status}` };
  } catch (error) {
    return { ok: false, detail: `with an error: ${String(error)}` };
  }
}

function checkoutBody(checkout: TestCheckout): string {
  const amount = new Intl.NumberFormat('en-GB', { style: 'currency', currency: checkout.currency }).format(checkout.amount);
  if (checkout.status !== 'PENDING') {
    return `<p>This test checkout is <strong>${escapeHtml(checkout.status)}</strong>.</p>` + continueLink(checkout);
  }
  const field = `<input type="hidden" name="id" value="${escapeHtml(checkout.id)}">`;
  const payButtons =
    checkout.purpose === 'SETUP_RECURRING_PAYMENT'
      ? (Object.keys(TEST_CARDS) as TestCard[])
          .map(
            (card) =>
              `<form method="post">${field}<input type="hidden" name="action" value="pay"><input type="hidden" name="card" value="${card}"><button type="submit" class="pay">Pay with ${escapeHtml(TEST_CARDS[card].label)}</button></form>`,
          )
          .join('')
      : `<form method="post">${field}<input type="hidden" name="action" value="pay"><button type="submit" class="pay">Pay ${escapeHtml(amount)}</button></form>`;
  const saving =
    checkout.purpose === 'SETUP_RECURRING_PAYMENT'
      ? // As SumUp's SETUP_RECURRING_PAYMENT: the amount is authorised and given back at once; whatever
        // the studio charges with the saved card afterwards is a charge of its own (none for a card
        // saved with nothing due, decision 0104).
        `<p>Saves the card for the membership's monthly renewals: ${escapeHtml(amount)} is only authorised and given back at once. Anything due is then charged with the saved card.</p>`
      : '';
  return `
    <dl>
      <dt>Item</dt><dd>${escapeHtml(checkout.description)}</dd>
      <dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
      <dt>Reference</dt><dd><code>${escapeHtml(checkout.reference)}</code></dd>
    </dl>
    ${saving}
    <div class="actions">
      ${payButtons}
      <form method="post">${field}<input type="hidden" name="action" value="decline"><button type="submit" class="decline">Decline</button></form>
    </div>`;
}

function continueLink(checkout: TestCheckout): string {
  return `<p><a href="${escapeHtml(checkout.redirectUrl ?? '/')}">Back to the studio</a></p>`;
}

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} (TEST - no real payment)</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
  .banner { background: #fde047; border: 2px dashed #a16207; padding: .75rem 1rem; font-weight: 700; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; } dd { margin: 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: 1.5rem; }
  button { font-size: 1rem; padding: .6rem 1.2rem; border-radius: .4rem; border: 1px solid #333; cursor: pointer; }
  .pay { background: #15803d; color: #fff; border-color: #15803d; }
  .decline { background: #fff; color: #b91c1c; border-color: #b91c1c; }
</style>
</head>
<body>
<p class="banner" role="note">TEST CHECKOUT: local development only. No card is charged and no money moves.</p>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

function formText(form: FormData | null, name: string): string {
  const value = form?.get(name);
  return typeof value === 'string' ? value : '';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
