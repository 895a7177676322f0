import { request } from 'node:http';
import { createClient, type EmailOtpType, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../stack';

// The local auth behaves as hosted GoTrue does where members would notice, driven through the
// HTTP API with supabase-js as the app calls it. Auth's clock is moved to cross GoTrue's windows.

const SITE = 'http://127.0.0.1:5173';
const PASSWORD = 'studio123';
let stack: Stack;
let clockOffsetMs = 0;
/** Set to stop auth's clock (a limiter's bucket then does not refill while a test drains it). */
let frozenAt: number | null = null;
let addressCounter = 0;

beforeAll(async () => {
  stack = await startStack({
    port: 0,
    dataDir: 'memory',
    quiet: true,
    siteUrl: SITE,
    authClock: () => (frozenAt ?? Date.now()) + clockOffsetMs,
  });
});

afterAll(async () => {
  await stack?.stop();
});

/**
 * fetch from one loopback address (127.0.0.2, 127.0.0.3…): the gateway keys its limits on the
 * connection's address, as hosted GoTrue's gateway does, so each test client is its own "IP".
 */
function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(req.url, { method: req.method, headers, localAddress }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answer.append(name, v);
          const status = res.statusCode ?? 500;
          resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}

/** A client as a browser at its own address (GoTrue's limits are per IP), or at `from`. */
function client(options: { from?: string; pkce?: boolean } = {}): SupabaseClient {
  addressCounter += 1;
  return createClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    global: { fetch: fetchFrom(options.from ?? `127.0.0.${2 + (addressCounter % 200)}`) },
    auth: { persistSession: false, autoRefreshToken: false, flowType: options.pkce ? 'pkce' : 'implicit' },
  });
}

function emailsTo(to: string) {
  return stack.inbox.list().filter((e) => e.to === to);
}

async function follow(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

type Mail = { links: string[] };

/** An email's link as supabase/templates build it: the site's /auth/callback?token_hash=…&type=…. */
function linkIn(mail: Mail): { url: URL; tokenHash: string; type: EmailOtpType } {
  const url = mail.links.map((l) => new URL(l)).find((u) => u.searchParams.has('token_hash'));
  expect(url, `a token_hash link in ${JSON.stringify(mail.links)}`).toBeDefined();
  return { url: url!, tokenHash: url!.searchParams.get('token_hash')!, type: url!.searchParams.get('type') as EmailOtpType };
}

/**
 * GoTrue's `{{ .ConfirmationURL }}` for the same email (what links sent before the token-hash links carried):
 * /verify with the token hash as its `token`, and the type GoTrue's mailer names it by.
 */
function confirmationUrl(mail: Mail): string {
  const { tokenHash, type } = linkIn(mail);
  return `${stack.url}/auth/v1/verify?token=${tokenHash}&type=${type === 'email' ? 'signup' : type}`;
}

/** Opens an email's link as the app's /auth/callback does: verifyOtp with its token hash, from `browser`. */
function openLink(mail: Mail, browser: SupabaseClient = client()) {
  const { tokenHash, type } = linkIn(mail);
  return browser.auth.verifyOtp({ token_hash: tokenHash, type });
}

/** Confirms a sign-up with the link of its newest email. */
async function confirmSignUp(email: string): Promise<void> {
  expect((await openLink(emailsTo(email)[0]!)).error).toBeNull();
}

let emailCounter = 0;
const newEmail = (label: string) => `${label}-${++emailCounter}@parity.test`;

describe('sign-up', () => {
  it('of a confirmed address answers like a new sign-up (made-up user, no session), sends nothing, changes nothing', async () => {
    const { data, error } = await client().auth.signUp({
      email: 'premium@studio.test',
      password: 'another-password',
      options: { data: { full_name: 'Impostor' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.email).toBe('premium@studio.test');
    expect(emailsTo('premium@studio.test')).toEqual([]);
    const owner = await client().auth.signInWithPassword({ email: 'premium@studio.test', password: PASSWORD });
    expect(owner.error).toBeNull();
    expect(data.user?.id).not.toBe(owner.data.user?.id);
    expect(owner.data.user?.user_metadata.full_name).not.toBe('Impostor');
  });

  it('again of an unconfirmed address never changes its password and re-sends the link at most once a minute', async () => {
    const email = newEmail('pending');
    expect((await client().auth.signUp({ email, password: 'first-secret' })).error).toBeNull();
    expect(emailsTo(email)).toHaveLength(1);

    const soon = await client().auth.signUp({ email, password: 'second-secret' });
    expect(soon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(soon.error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    expect(emailsTo(email)).toHaveLength(1);

    clockOffsetMs += 61_000;
    const later = await client().auth.signUp({ email, password: 'third-secret' });
    expect(later.error).toBeNull();
    expect(emailsTo(email)).toHaveLength(2);

    await confirmSignUp(email);
    for (const wrong of ['second-secret', 'third-secret']) {
      expect((await client().auth.signInWithPassword({ email, password: wrong })).error?.code).toBe('invalid_credentials');
    }
    expect((await client().auth.signInWithPassword({ email, password: 'first-secret' })).error).toBeNull();
  });
});

describe('redirects', () => {
  async function landingOf(redirectTo: string): Promise<string> {
    const email = newEmail('redirect');
    expect((await client().auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: redirectTo } })).error).toBeNull();
    const location = await follow(confirmationUrl(emailsTo(email)[0]!));
    return `${location.origin}${location.pathname}`;
  }

  it('go only to the site URL and the redirect URLs of supabase/config.toml', async () => {
    expect(await landingOf(`${SITE}/auth/callback`)).toBe(`${SITE}/auth/callback`);
    expect(await landingOf('http://localhost:5173/auth/callback')).toBe('http://localhost:5173/auth/callback');
    expect(await landingOf('https://evil.example/auth/callback')).toBe(`${SITE}/`);
    expect(await landingOf('http://localhost:9999/auth/callback')).toBe(`${SITE}/`);
  });
});

describe('refresh tokens', () => {
  it('reused after the reuse interval revoke the whole session', async () => {
    const c = client();
    const { data } = await c.auth.signInWithPassword({ email: 'standard@studio.test', password: PASSWORD });
    const original = data.session!.refresh_token;
    const second = (await c.auth.refreshSession()).data.session!.refresh_token;
    const third = (await c.auth.refreshSession()).data.session!.refresh_token;
    expect(new Set([original, second, third]).size).toBe(3);

    // Within the 10 s reuse interval (two tabs refreshing at once) the active token comes back.
    const raced = await client().auth.refreshSession({ refresh_token: second });
    expect(raced.error).toBeNull();
    expect(raced.data.session?.refresh_token).toBe(third);

    clockOffsetMs += 11_000;
    const stolen = await client().auth.refreshSession({ refresh_token: original });
    expect(stolen.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const owner = await client().auth.refreshSession({ refresh_token: third });
    expect(owner.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
  });
});

describe('PKCE links', () => {
  it('confirm a sign-up with ?code= that only the browser holding the verifier can exchange', async () => {
    const browser = client({ pkce: true });
    const email = newEmail('pkce');
    expect(
      (await browser.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${SITE}/auth/callback` } })).error,
    ).toBeNull();
    expect(linkIn(emailsTo(email)[0]!).tokenHash).toMatch(/^pkce_[0-9a-f]{56}$/);

    const landing = await follow(confirmationUrl(emailsTo(email)[0]!));
    expect(`${landing.origin}${landing.pathname}`).toBe(`${SITE}/auth/callback`);
    expect(landing.hash).toBe('');
    const code = landing.searchParams.get('code')!;
    expect(code).toBeTruthy();

    // Someone else who got hold of the code (a crafted link) has no verifier.
    const other = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(50) }),
    });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { code: string }).code).toBe('bad_code_verifier');

    const { data, error } = await browser.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(data.session?.user.email_confirmed_at).toBeTruthy();

    // A code is exchanged once.
    const replay = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(50) }),
    });
    expect(((await replay.json()) as { code: string }).code).toBe('flow_state_not_found');
  });

  it('recover a password: the link lands on the callback with type=recovery and a code', async () => {
    const browser = client({ pkce: true });
    const email = 'newpayg@studio.test';
    expect((await browser.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/auth/callback?type=recovery` })).error).toBeNull();
    const landing = await follow(confirmationUrl(emailsTo(email)[0]!));
    expect(landing.searchParams.get('type')).toBe('recovery');
    const { data, error } = await browser.auth.exchangeCodeForSession(landing.searchParams.get('code')!);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect((await browser.auth.updateUser({ password: 'recovered-1' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: 'recovered-1' })).error).toBeNull();
  });

  it('an expired or used link says so on the callback URL, in the query and the fragment', async () => {
    const browser = client({ pkce: true });
    const email = newEmail('pkce-twice');
    await browser.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${SITE}/auth/callback` } });
    const link = confirmationUrl(emailsTo(email)[0]!);
    await follow(link);
    const again = await follow(link);
    expect(again.searchParams.get('error_code')).toBe('otp_expired');
    expect(new URLSearchParams(again.hash.slice(1)).get('error_description')).toBe('Email link is invalid or has expired');
  });
});

/** A JWT's claims (no check: the stack signed it). */
function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** POST /verify as raw HTTP (what verifyOtp sends, and what it cannot: refused shapes). */
async function postVerify(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetchFrom(`127.0.0.${2 + (++addressCounter % 200)}`)(`${stack.url}/auth/v1/verify`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('links opened in any browser: {{ .TokenHash }} and verifyOtp', () => {
  it('the emails link to the site callback with the token hash GoTrue puts in {{ .ConfirmationURL }}', async () => {
    const asker = client({ pkce: true });
    const email = newEmail('template');
    await asker.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${SITE}/auth/callback` } });
    const [mail] = emailsTo(email);
    const { url, tokenHash, type } = linkIn(mail!);
    expect(`${url.origin}${url.pathname}`).toBe(`${SITE}/auth/callback`);
    expect(type).toBe('email');
    expect(tokenHash).toMatch(/^pkce_[0-9a-f]{56}$/);
    // The same link is spelled out for mail apps that drop the button, in both parts.
    expect(mail!.links.filter((l) => l === url.toString())).toHaveLength(2);
    expect(mail!.text).toContain(url.toString());

    await client().auth.resetPasswordForEmail('standard@studio.test', { redirectTo: `${SITE}/auth/callback?type=recovery` });
    const recovery = linkIn(emailsTo('standard@studio.test')[0]!);
    expect(recovery.type).toBe('recovery');
    expect(recovery.tokenHash).toMatch(/^[0-9a-f]{56}$/); // the implicit flow: no pkce_ prefix
  });

  it('a reset asked for in one browser is opened in another: verifyOtp answers the session, once', async () => {
    const email = newEmail('phone-reset');
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    await confirmSignUp(email);

    const laptop = client({ pkce: true });
    expect((await laptop.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/auth/callback?type=recovery` })).error).toBeNull();
    const mail = emailsTo(email)[0]!;
    expect(linkIn(mail).tokenHash).toMatch(/^pkce_/);

    // The phone has no code verifier: it never asked.
    const phone = client({ pkce: true });
    const { data, error } = await openLink(mail, phone);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(claimsOf(data.session!.access_token).amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);
    expect((await phone.auth.updateUser({ password: 'from-the-phone' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: 'from-the-phone' })).error).toBeNull();

    // Used: GoTrue's 403 otp_expired, from any browser, and by the /verify link of the same token.
    const again = await openLink(mail, client());
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' });
    expect(again.data.session).toBeNull();
    expect(new URLSearchParams((await follow(confirmationUrl(mail))).hash.slice(1)).get('error_code')).toBe('otp_expired');
  });

  it('an invitation (POST /invite, service role only) links to type=invite, signs in once, and the member chooses a password', async () => {
    const email = newEmail('invited');
    const refused = await client().auth.admin.inviteUserByEmail(email);
    expect(refused.error?.status).toBe(403);
    expect(emailsTo(email)).toHaveLength(0);

    const admin = createClient(stack.url, stack.serviceRoleKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    }).auth.admin;
    const invited = await admin.inviteUserByEmail(email, { data: { full_name: 'Invited Person' }, redirectTo: `${SITE}/auth/callback` });
    expect(invited.error).toBeNull();
    const mail = emailsTo(email)[0]!;
    expect(mail.subject).toMatch(/invited/i);
    expect(linkIn(mail).type).toBe('invite');
    const browser = client();
    const { data, error } = await openLink(mail, browser);
    expect(error).toBeNull();
    expect(data.session?.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect((await browser.auth.updateUser({ password: 'chosen-by-me' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: 'chosen-by-me' })).error).toBeNull();
    // A registered address is not invited again.
    expect((await admin.inviteUserByEmail(email)).error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('a sign-up confirmed in another browser (type email) is confirmed and signed in', async () => {
    const email = newEmail('phone-confirm');
    expect((await client({ pkce: true }).auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const { data, error } = await openLink(emailsTo(email)[0]!, client({ pkce: true }));
    expect(error).toBeNull();
    expect(data.session?.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it('a token of another type is not found, and stays usable with its own type; unknown types are refused', async () => {
    const email = newEmail('wrong-type');
    await client().auth.signUp({ email, password: PASSWORD });
    const { tokenHash } = linkIn(emailsTo(email)[0]!);
    for (const type of ['recovery', 'magiclink', 'email_change'] as const) {
      expect((await client().auth.verifyOtp({ token_hash: tokenHash, type })).error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    expect((await client().auth.verifyOtp({ token_hash: tokenHash, type: 'bogus' })).error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid email verification type',
    });
    // signup names the confirmation token as email does.
    expect((await client().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' })).error).toBeNull();
  });

  it('refuses what GoTrue refuses, before looking anything up', async () => {
    const email = newEmail('refused');
    await client().auth.signUp({ email, password: PASSWORD });
    const { tokenHash } = linkIn(emailsTo(email)[0]!);
    const validation = (message: string) => ({ status: 400, body: { code: 'validation_failed', message } });
    expect(await postVerify({ token_hash: tokenHash })).toEqual(validation('Verify requires a verification type'));
    expect(await postVerify({ type: 'email' })).toEqual(validation('Verify requires either a token or a token hash'));
    expect(await postVerify({ type: 'email', token_hash: tokenHash, token: '123456' })).toEqual(
      validation('Verify requires either a token or a token hash'),
    );
    expect(await postVerify({ type: 'email', token_hash: tokenHash, email })).toEqual(
      validation('Only the token_hash and type should be provided'),
    );
    expect(await postVerify({ type: 'email', token_hash: tokenHash, redirect_to: SITE })).toEqual(
      validation('Only the token_hash and type should be provided'),
    );
    expect(await postVerify({ type: 'email', token: '123456' })).toEqual(
      validation('Only an email address or phone number should be provided on verify'),
    );
    // The local emails carry no 6-digit code ({{ .Token }}), so none matches.
    expect(await postVerify({ type: 'email', token: '123456', email })).toEqual({
      status: 403,
      body: { code: 'otp_expired', message: 'Token has expired or is invalid' },
    });
    // GET /verify without its type or token: JSON, not a redirect.
    const bare = await fetch(`${stack.url}/auth/v1/verify?token=${tokenHash}`, { redirect: 'manual' });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ code: 'validation_failed', message: 'Verify requires a verification type' });
    // None of that spent the token.
    expect((await openLink(emailsTo(email)[0]!)).error).toBeNull();
  });

  it("an email change: the first link answers GoTrue's message, the second the session with the new address", async () => {
    const email = newEmail('change-otp');
    await client().auth.signUp({ email, password: PASSWORD });
    await confirmSignUp(email);
    const c = client();
    await c.auth.signInWithPassword({ email, password: PASSWORD });
    const next = newEmail('change-otp-to');
    expect((await c.auth.updateUser({ email: next })).error).toBeNull();
    const toCurrent = emailsTo(email).find((e) => e.subject === 'Confirm your new email for Finer Fitness')!;

    // GoTrue's answer, which supabase-js turns into no user and no session (and no error).
    const first = await postVerify({ token_hash: linkIn(toCurrent).tokenHash, type: 'email_change' });
    expect(first).toEqual({
      status: 200,
      body: { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' },
    });

    const second = await openLink(emailsTo(next)[0]!);
    expect(second.error).toBeNull();
    expect(second.data.session?.user.email).toBe(next);
  });
});

describe('rate limits, per IP as hosted', () => {
  it('sign-ins: 30 at once from one address, then 429; another address (same email) is not locked out', async () => {
    const attacker = client({ from: '127.0.0.250' });
    frozenAt = Date.now();
    try {
      for (let i = 0; i < 30; i += 1) {
        const { error } = await attacker.auth.signInWithPassword({ email: 'payg@studio.test', password: `wrong-${i}` });
        expect(error?.code).toBe('invalid_credentials');
      }
      const blocked = await attacker.auth.signInWithPassword({ email: 'payg@studio.test', password: PASSWORD });
      expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      const owner = await client({ from: '127.0.0.251' }).auth.signInWithPassword({ email: 'payg@studio.test', password: PASSWORD });
      expect(owner.error).toBeNull();
    } finally {
      frozenAt = null;
    }
  });

  it('sign-ins: a rotating X-Forwarded-For from one connection address is still one address', async () => {
    // Every request claims another client address; the connection always comes from one.
    let forged = 0;
    const fromOneAddress = fetchFrom('127.0.0.253');
    const attacker = createClient(stack.url, stack.anonKey, {
      realtime: { transport: WebSocket as never },
      global: {
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('x-forwarded-for', `198.51.100.${(forged += 1)}`);
          return fromOneAddress(input, { ...init, headers });
        },
      },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    frozenAt = Date.now();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i += 1) {
        const { error } = await attacker.auth.signInWithPassword({ email: 'payg@studio.test', password: `wrong-${i}` });
        statuses.push(error?.status ?? 200);
      }
      expect(forged).toBe(40);
      expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    } finally {
      frozenAt = null;
    }
  });

  it('no per-email lockout: repeated wrong passwords for one email do not block its right password', async () => {
    const member = client({ from: '127.0.0.252' });
    for (let i = 0; i < 8; i += 1) {
      expect((await member.auth.signInWithPassword({ email: 'trial@studio.test', password: `wrong-${i}` })).error?.code).toBe(
        'invalid_credentials',
      );
    }
    expect((await member.auth.signInWithPassword({ email: 'trial@studio.test', password: PASSWORD })).error).toBeNull();
  });

  it('emails: at most email_sent per hour for the whole project (config.toml), then 429 and no user made', async () => {
    clockOffsetMs += 3_600_000; // a new hour: the budget is whole again
    const sent: string[] = [];
    for (;;) {
      const email = newEmail('budget');
      const { error } = await client().auth.signUp({ email, password: PASSWORD });
      if (error) {
        expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' });
        expect(emailsTo(email)).toEqual([]);
        // GoTrue made no user: once the budget is back, the same address signs up normally.
        clockOffsetMs += 3_600_000;
        expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
        expect(emailsTo(email)).toHaveLength(1);
        break;
      }
      sent.push(email);
      expect(sent.length).toBeLessThanOrEqual(30);
    }
    expect(sent).toHaveLength(30);
  });
});

describe('email change (PUT /user), secure as config.toml sets it', () => {
  const SUBJECT = 'Confirm your new email for Finer Fitness';

  /** A confirmed account of the test's own, signed in. */
  async function signedInMember(label: string) {
    const email = newEmail(label);
    expect((await client().auth.signUp({ email, password: PASSWORD, options: { data: { full_name: 'Eve Change' } } })).error).toBeNull();
    await confirmSignUp(email);
    const c = client();
    const { data, error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { c, email, userId: data.user!.id };
  }

  /** members.email through the API as the service role. */
  async function memberEmail(userId: string): Promise<string | undefined> {
    const res = await fetch(`${stack.url}/rest/v1/members?user_id=eq.${userId}&select=email`, {
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    return ((await res.json()) as { email: string }[])[0]?.email;
  }

  it('emails both addresses, and moves the login and the member row only once both links are followed', async () => {
    const { c, email, userId } = await signedInMember('change-from');
    expect(await memberEmail(userId)).toBe(email);
    const next = newEmail('change-to');

    const { data, error } = await c.auth.updateUser({ email: next }, { emailRedirectTo: `${SITE}/edit-profile` });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: next, email_change_sent_at: expect.any(String) });

    // One email to each address, through SMTP, with the studio's email_change template filled in.
    const [toNew] = emailsTo(next);
    const toCurrent = emailsTo(email).find((e) => e.subject === SUBJECT);
    expect(emailsTo(next)).toHaveLength(1);
    for (const mail of [toNew!, toCurrent!]) {
      expect(mail).toMatchObject({
        subject: SUBJECT,
        html: expect.stringContaining(`from ${email} to ${next}`),
        text: expect.stringContaining(next),
      });
      expect(mail.headers['content-type']).toMatch(/^multipart\/alternative;/);
    }
    expect(linkIn(toNew!).type).toBe('email_change');
    expect(linkIn(toCurrent!).type).toBe('email_change');
    const newLink = confirmationUrl(toNew!);
    const currentLink = confirmationUrl(toCurrent!);
    expect(newLink).not.toBe(currentLink);

    // The first link only counts: GoTrue's message, nothing moved yet.
    const first = await follow(newLink);
    expect(`${first.origin}${first.pathname}`).toBe(`${SITE}/edit-profile`);
    expect(Object.fromEntries(new URLSearchParams(first.hash.slice(1)))).toEqual({
      message: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      sb: '',
    });
    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect(await memberEmail(userId)).toBe(email);
    // A link works once.
    expect(new URLSearchParams((await follow(newLink)).hash.slice(1)).get('error_code')).toBe('otp_expired');

    // The second signs in with the new address; the database copied it to the member row.
    const second = new URLSearchParams((await follow(currentLink)).hash.slice(1));
    expect(second.get('type')).toBe('email_change');
    const { data: after } = await client().auth.getUser(second.get('access_token')!);
    expect(after.user?.email).toBe(next);
    expect(after.user?.new_email).toBeUndefined();
    expect((await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
    expect(await memberEmail(userId)).toBe(next);
  });

  it('with PKCE: the first link says so in the query too, the second lands with a code only the verifier exchanges', async () => {
    const email = newEmail('change-pkce');
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    await confirmSignUp(email);
    const { data: signedIn } = await client().auth.signInWithPassword({ email, password: PASSWORD });
    // Raw HTTP: supabase-js drops its code verifier when updateUser saves the session, so the
    // browser that asked cannot exchange the code itself; what the server does is the same.
    const verifier = 'v'.repeat(50);
    const next = newEmail('change-pkce-to');
    const put = await fetch(`${stack.url}/auth/v1/user?redirect_to=${encodeURIComponent(`${SITE}/auth/callback`)}`, {
      method: 'PUT',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${signedIn.session!.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: next, code_challenge: verifier, code_challenge_method: 'plain' }),
    });
    expect(put.status).toBe(200);
    const linkTo = (to: string) => confirmationUrl(emailsTo(to).find((e) => e.subject === SUBJECT)!);
    expect(new URL(linkTo(next)).searchParams.get('token')).toMatch(/^pkce_/);

    const first = await follow(linkTo(email));
    expect(first.searchParams.get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email');
    expect(first.searchParams.get('code')).toBeNull();
    const second = await follow(linkTo(next));
    expect(`${second.origin}${second.pathname}`).toBe(`${SITE}/auth/callback`);
    const exchange = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: second.searchParams.get('code'), code_verifier: verifier }),
    });
    expect(exchange.status).toBe(200);
    expect(((await exchange.json()) as { user: { email: string } }).user.email).toBe(next);
  });

  it('refuses a malformed or taken address, and a second request within a minute, changing and sending nothing', async () => {
    const { c, email, userId } = await signedInMember('change-refused');
    const before = stack.inbox.list().length;
    expect((await c.auth.updateUser({ email: 'not-an-address' })).error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await c.auth.updateUser({ email: 'premium@studio.test' })).error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
    expect(stack.inbox.list()).toHaveLength(before);

    const next = newEmail('change-once');
    expect((await c.auth.updateUser({ email: next })).error).toBeNull();
    const again = await c.auth.updateUser({ email: newEmail('change-twice'), data: { full_name: 'Not Saved' } });
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    const { data } = await c.auth.getUser();
    expect(data.user).toMatchObject({ email, new_email: next });
    expect(data.user?.user_metadata.full_name).toBe('Eve Change');
    expect(await memberEmail(userId)).toBe(email);
  });
});

// Moves auth's clock a day on (and back): last, so no other test's links are older than they are.
describe('expiry', () => {
  it("a link older than the OTP expiry is GoTrue's 403 otp_expired and confirms nothing", async () => {
    const email = newEmail('expired');
    await client().auth.signUp({ email, password: PASSWORD });
    const mail = emailsTo(email)[0]!;
    const later = 24 * 3600_000 + 1000;
    clockOffsetMs += later;
    try {
      // One address of its own: its limiter bucket is the only one that sees tomorrow.
      const tomorrow = client({ from: '127.0.0.240' });
      expect((await openLink(mail, tomorrow)).error).toMatchObject({
        status: 403,
        code: 'otp_expired',
        message: 'Email link is invalid or has expired',
      });
      expect((await tomorrow.auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('email_not_confirmed');
    } finally {
      clockOffsetMs -= later;
    }
  });
});
