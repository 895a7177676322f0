import type { Db } from '../lib/supabase-server';
import { compositeRow } from '../../src/lib/composite-row';
import { EMAIL_BRAND } from '../lib/email/brand';
import { escapeHtml } from '../lib/escape-html';
import { methodNotAllowed } from '../lib/http';
import { readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** The token format of email_preferences.unsubscribe_token (64 hex characters). */
const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

const INVALID = 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.';

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(EMAIL_BRAND.name)}</title>
<style>body{font:16px/1.5 ${EMAIL_BRAND.fontFamily};color:${EMAIL_BRAND.colors.text};background:${EMAIL_BRAND.colors.page};margin:0;padding:2rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid ${EMAIL_BRAND.colors.tintBorder};border-radius:12px;padding:1.5rem}
h1{font-size:1.4rem;margin:0 0 1rem}button{background:${EMAIL_BRAND.colors.accent};color:#fff;border:0;border-radius:8px;padding:.8rem 1.2rem;font:inherit;font-weight:600;width:100%;cursor:pointer}
a{color:${EMAIL_BRAND.colors.accentDark}}</style></head>
<body><main><p><strong>${escapeHtml(EMAIL_BRAND.name)}</strong></p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'referrer-policy': 'no-referrer',
    },
  });
}

/**
 * GET  /.netlify/functions/unsubscribe?token=…  a page asking to confirm (mail scanners follow
 *      links, so a GET never changes anything);
 * POST /.netlify/functions/unsubscribe?token=…  turns the member's reminder emails off: the
 *      page's button, or the mail app's one-click unsubscribe (RFC 8058 List-Unsubscribe-Post).
 * An unknown or malformed token changes nothing and says so.
 */
export default async function unsubscribe(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed('GET, POST');
  const params = new URL(req.url).searchParams;
  const token = params.get('token') ?? '';
  if (!TOKEN_PATTERN.test(token)) return page(400, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
  // The come-back emails (issue 28) are their own list: their link turns off only them.
  if (params.get('list') === 'win_back') return unsubscribeWinBack(req, token);

  if (req.method === 'GET') {
    return page(
      200,
      'Stop reminder emails?',
      `<p>You will no longer get an email before your booked classes. Booking confirmations, cancellations and waitlist news still come.</p>
<form method="post" action="?token=${token}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop reminder emails</button></form>`,
    );
  }

  try {
    const env = readServerEnv();
    const db: Db = serviceDb(env);
    const { data, error } = await db.rpc('unsubscribe_reminders', { p_token: token });
    if (error) {
      if (error.hint === 'invalid_unsubscribe_token') return page(404, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
      throw new Error(`unsubscribe_reminders failed: ${error.code} ${error.message}`);
    }
    const { email } = compositeRow<'reminders_unsubscribed'>(data);
    const profile = `${env.siteUrl}/edit-profile`;
    return page(
      200,
      'Reminder emails are off',
      `<p>We won't send reminder emails to ${escapeHtml(email)} any more. Booking confirmations still come.</p>
<p>Changed your mind? Turn them back on on <a href="${escapeHtml(profile)}">Edit Profile</a>.</p>`,
    );
  } catch (error) {
    console.error('[unsubscribe] failed', error);
    return page(500, 'Something went wrong', '<p>We could not update your email preferences. Please try the link again in a minute.</p>');
  }
}

/** The same two steps for the come-back emails after a trial or membership ends. */
async function unsubscribeWinBack(req: Request, token: string): Promise<Response> {
  if (req.method === 'GET') {
    return page(
      200,
      'Stop these emails?',
      `<p>You will no longer get emails inviting you back to the studio. Booking confirmations and payment emails still come.</p>
<form method="post" action="?token=${token}&amp;list=win_back"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop these emails</button></form>`,
    );
  }
  try {
    const env = readServerEnv();
    const { data: email, error } = await serviceDb(env).rpc('unsubscribe_win_back', { p_token: token });
    if (error) {
      if (error.hint === 'invalid_unsubscribe_token') return page(404, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
      throw new Error(`unsubscribe_win_back failed: ${error.code} ${error.message}`);
    }
    return page(200, 'You will not get these emails any more', `<p>We won't send ${escapeHtml(email)} any more emails inviting you back.</p>`);
  } catch (error) {
    console.error('[unsubscribe] failed', error);
    return page(500, 'Something went wrong', '<p>We could not update your email preferences. Please try the link again in a minute.</p>');
  }
}
