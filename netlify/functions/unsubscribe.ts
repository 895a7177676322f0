import type { PostgrestError } from '@supabase/supabase-js';
import type { Db } from '../lib/supabase-server';
import { compositeRow } from '../../src/lib/composite-row';
import { EMAIL_BRAND } from '../lib/email/brand';
import { escapeHtml } from '../lib/escape-html';
import { methodNotAllowed } from '../lib/http';
import { readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** The token format of email_preferences.unsubscribe_token (64 hex characters; the choices it changes are notification_preferences'). */
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
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'referrer-policy': 'no-referrer',
    },
  });
}

/** What one list's unsubscribe link asks, turns off and then says. */
type EmailList = {
  question: string;
  explanation: string;
  button: string;
  /** The list's part of the form's action (the token's comes first). */
  listParam: string;
  /** Turns the list off for the token's member: their email, or the database's refusal. */
  turnOff: (db: Db, token: string) => Promise<{ email: string; error?: undefined } | { error: PostgrestError }>;
  done: (email: string, siteUrl: string) => { title: string; body: string };
};

const LISTS: Record<'reminders' | 'win_back', EmailList> = {
  reminders: {
    question: 'Stop reminder emails?',
    explanation:
      'You will no longer get an email before your booked classes. Booking confirmations, cancellations and waitlist news still come.',
    button: 'Stop reminder emails',
    listParam: '',
    turnOff: async (db, token) => {
      const { data, error } = await db.rpc('unsubscribe_reminders', { p_token: token });
      return error ? { error } : { email: compositeRow<'reminders_unsubscribed'>(data).email };
    },
    done: (email, siteUrl) => ({
      title: 'Reminder emails are off',
      body: `<p>We won't send reminder emails to ${escapeHtml(email)} any more. Booking confirmations still come.</p>
<p>Changed your mind? Turn them back on on <a href="${escapeHtml(`${siteUrl}/edit-profile`)}">Edit Profile</a>.</p>`,
    }),
  },
  // Marketing (come-back emails, news and offers): the link withdraws marketing consent, so it
  // stops every marketing email and leaves reminders and service emails alone.
  win_back: {
    question: 'Stop these emails?',
    explanation:
      'You will no longer get news, offers or emails inviting you back to the studio. Booking confirmations and payment emails still come.',
    button: 'Stop these emails',
    listParam: '&amp;list=win_back',
    turnOff: async (db, token) => {
      const { data, error } = await db.rpc('unsubscribe_win_back', { p_token: token });
      return error ? { error } : { email: data };
    },
    done: (email) => ({
      title: 'You will not get these emails any more',
      body: `<p>We won't send ${escapeHtml(email)} any more news, offers or emails inviting you back.</p>`,
    }),
  },
};

/**
 * GET  /.netlify/functions/unsubscribe?token=…[&list=win_back]  a page asking to confirm (mail
 *      scanners follow links, so a GET never changes anything);
 * POST the same URL  turns that list off for the token's member (reminders unless the link names
 *      the come-back emails): the page's button, or the mail app's one-click unsubscribe (RFC 8058).
 * An unknown or malformed token changes nothing and says so.
 */
export default async function unsubscribe(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed('GET, POST');
  const params = new URL(req.url).searchParams;
  const token = params.get('token') ?? '';
  if (!TOKEN_PATTERN.test(token)) return page(400, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
  const list = LISTS[params.get('list') === 'win_back' ? 'win_back' : 'reminders'];

  if (req.method === 'GET') {
    return page(
      200,
      list.question,
      `<p>${list.explanation}</p>
<form method="post" action="?token=${token}${list.listParam}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${list.button}</button></form>`,
    );
  }

  try {
    const env = readServerEnv();
    const result = await list.turnOff(serviceDb(env), token);
    if (result.error) {
      if (result.error.hint === 'invalid_unsubscribe_token') return page(404, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
      throw new Error(`unsubscribe failed: ${result.error.code} ${result.error.message}`);
    }
    const { title, body } = list.done(result.email, env.siteUrl);
    return page(200, title, body);
  } catch (error) {
    console.error('[unsubscribe] failed', error);
    return page(500, 'Something went wrong', '<p>We could not update your email preferences. Please try the link again in a minute.</p>');
  }
}
