import type { BrowserContext, Page } from '@playwright/test';
import type { StackApi } from './local-stack';

/** Demo accounts the local stack seeds (design.md section 4). */
export const PASSWORD = 'studio123';
export const ACCOUNTS = {
  admin: 'admin@studio.test',
  premium: 'premium@studio.test',
  standard: 'standard@studio.test',
  payg: 'payg@studio.test',
  newPayg: 'newpayg@studio.test',
  trial: 'trial@studio.test',
  coach: 'coach@studio.test',
} as const;

/** supabase-js's default storage key: `sb-<first label of the host>-auth-token`. */
export function storageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

/** A password grant against the stack's GoTrue API: the session supabase-js would store. */
export async function passwordSession(stack: StackApi, email: string, password = PASSWORD): Promise<Record<string, unknown>> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(body)}`);
  const expiresIn = Number(body.expires_in ?? 3600);
  return { ...body, expires_at: body.expires_at ?? Math.floor(Date.now() / 1000) + expiresIn };
}

/**
 * Signs a browser page in without the sign-in screen (journeys that test that screen use it):
 * stores the session where supabase-js looks for it, plus the spec's ffEmail (and
 * adminAuthenticated for admins), then reloads the app.
 */
export async function signInAs(
  page: Page,
  stack: StackApi,
  email: string,
  opts: { admin?: boolean; password?: string } = {},
): Promise<void> {
  const session = await passwordSession(stack, email, opts.password);
  if (!page.url().startsWith('http')) await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.evaluate(
    ({ key, value, email, admin }) => {
      localStorage.setItem(key, value);
      localStorage.setItem('ffEmail', email);
      if (admin) localStorage.setItem('adminAuthenticated', 'true');
    },
    { key: storageKey(stack.url), value: JSON.stringify(session), email, admin: opts.admin ?? false },
  );
}

/** Authorization headers for calling the stack's REST API as a signed-in user. */
export async function authHeaders(stack: StackApi, email: string): Promise<Record<string, string>> {
  const session = await passwordSession(stack, email);
  return { apikey: stack.anonKey, authorization: `Bearer ${String(session.access_token)}`, 'content-type': 'application/json' };
}

/**
 * Signs a whole browser context in before its first page loads (the bench: the first navigation
 * is the measured one). Runs on every navigation, so do not use it in journeys that log out.
 */
export async function signInContext(
  context: BrowserContext,
  stack: StackApi,
  email: string,
  opts: { admin?: boolean } = {},
): Promise<void> {
  const session = await passwordSession(stack, email);
  await context.addInitScript(
    ({ key, value, email, admin }) => {
      localStorage.setItem(key, value);
      localStorage.setItem('ffEmail', email);
      if (admin) localStorage.setItem('adminAuthenticated', 'true');
    },
    { key: storageKey(stack.url), value: JSON.stringify(session), email, admin: opts.admin ?? false },
  );
}

/**
 * A new member of the journey's own (so journeys that change a password or a plan leave the
 * demo accounts alone): signs up through GoTrue and follows the confirmation link from the inbox.
 */
export async function createConfirmedMember(
  stack: StackApi,
  email: string,
  password: string,
  data: Record<string, string>,
  opts: { signDocuments?: boolean } = {},
): Promise<void> {
  const res = await fetch(`${stack.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, data }),
  });
  if (!res.ok) throw new Error(`sign-up of ${email} failed: ${res.status} ${await res.text()}`);
  const mail = (await stack.inbox.list()).find((m) => m.to === email);
  const link = mail?.links?.map((l) => new URL(l)).find((u) => u.searchParams.has('token_hash'));
  if (!link) throw new Error(`no confirmation link for ${email} in the inbox`);
  // The link is the site's /auth/callback?token_hash=…&type=…; the callback verifies it as this does.
  const confirmed = await fetch(`${stack.url}/auth/v1/verify`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ token_hash: link.searchParams.get('token_hash'), type: link.searchParams.get('type') }),
  });
  if (!confirmed.ok) throw new Error(`confirming ${email}: ${confirmed.status} ${await confirmed.text()}`);
  // Journeys that book need the studio's current documents signed; the sign-page journey does it on screen.
  if (opts.signDocuments ?? true) await signDocumentsAs(stack, email, password);
}

/**
 * Signs the current terms, waiver and PAR-Q (every answer "no") as this member through the same
 * RPCs the sign page calls, so a journey's new member may book.
 */
export async function signDocumentsAs(stack: StackApi, email: string, password = PASSWORD): Promise<void> {
  const session = await passwordSession(stack, email, password);
  const headers = { apikey: stack.anonKey, authorization: `Bearer ${String(session.access_token)}`, 'content-type': 'application/json' };
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} for ${email}: ${res.status} ${await res.text()}`);
    return (await res.json()) as unknown;
  };
  const docs = (await call('/rest/v1/rpc/my_documents', {})) as { document_id: string; kind: string; is_current: boolean }[];
  const toSign = docs.filter((d) => !d.is_current);
  if (toSign.length === 0) return;
  const parq = toSign.find((d) => d.kind === 'parq');
  const questions = parq
    ? ((await call(`/rest/v1/document_versions?select=questions&id=eq.${parq.document_id}`)) as { questions: string[] }[])[0]!.questions
    : [];
  // The signature is the name on the account (sign_documents refuses any other).
  const [me] = (await call('/rest/v1/members?select=name')) as { name: string | null }[];
  if (!me?.name) throw new Error(`${email} has no name on their account to sign with: give the sign-up a full_name`);
  await call('/rest/v1/rpc/sign_documents', {
    p_signed_name: me.name,
    p_document_ids: toSign.map((d) => d.document_id),
    p_answers: questions.map(() => false),
    p_health_consent: true,
  });
}
