import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import bcrypt from 'bcryptjs';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  EMAIL_LINK_TTL_SECONDS,
  EMAIL_MAX_FREQUENCY_SECONDS,
  FLOW_STATE_TTL_SECONDS,
  MIN_PASSWORD_LENGTH,
  REFRESH_REUSE_INTERVAL_SECONDS,
} from '../config';
import { bearerToken, clientIp, readJson, sendJson } from '../http-util';
import type { JwtClaims, JwtKeys } from '../jwt';
import type { RestClient } from '../rest-client';
import type { AuthConfig } from './auth-config';
import { AuthError, authErrors } from './auth-errors';
import type { AuthMailer } from './auth-mailer';
import { readCodeChallenge, verifierMatches, type CodeChallenge } from './pkce';
import { HourlyBudget, TokenBucketLimiter } from './rate-limits';
import { RedirectPolicy } from './redirect-policy';

/** A row of auth.users as the gateway RPCs return it. */
export interface StoredUser {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  /** The address a pending email change moves to (GoTrue's new_email), null when none is pending. */
  email_change: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AuthDeps {
  rest: RestClient;
  jwt: JwtKeys;
  /** Sends the confirmation and recovery emails (through the local SMTP server). */
  mailer: AuthMailer;
  /** The public URL of the gateway (emailed links point at it). */
  apiUrl: () => string;
  siteUrl: string;
  /** Redirect allow list and rate limits (supabase/config.toml). */
  config: AuthConfig;
  /** Now, in ms: GoTrue's windows (resend frequency, reuse interval, flow expiry, limits) use it. */
  now?: () => number;
}

/** How an email link signs in: tokens in the fragment (implicit) or an auth code (PKCE). */
type EmailFlow = { pkce: false } | { pkce: true; challenge: CodeChallenge };

/** What an emailed link does (GoTrue's verification types; also the PKCE flow's authentication method). */
type EmailAction = 'signup' | 'recovery' | 'email_change';

/**
 * A followed link: signed in as `user`, or the first of an email change's two links (nothing to
 * sign in yet). `verifiedAs` is the type GoTrue goes on with: `email` becomes `signup` or
 * `magiclink` by the token it found (verifyTokenHash).
 */
type ConsumedLink =
  { user: StoredUser; redirectTo: string | null; type: EmailAction; verifiedAs: string } | { pending: true; redirectTo: string | null };

/**
 * The stored tokens each verification type may spend, as GoTrue's verifyTokenHash looks them up:
 * signup and invite the confirmation token, recovery and magiclink the recovery token, `email`
 * either, email_change either half of the change. Any other type is refused.
 */
const TOKENS_BY_TYPE: Record<string, readonly string[]> = {
  signup: ['signup'],
  invite: ['signup'],
  recovery: ['recovery'],
  magiclink: ['recovery'],
  email: ['signup', 'recovery'],
  email_change: ['email_change'],
};

/** An emailed link: the token the template's `{{ .TokenHash }}` is, and the /verify URL (`{{ .ConfirmationURL }}`). */
type IssuedLink = { tokenHash: string; confirmationUrl: string };

/** GoTrue's answer to the first of the two links of a secure email change. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** GoTrue's prefix on email tokens of the PKCE flow (verify answers with ?code= for them). */
const PKCE_TOKEN_PREFIX = 'pkce_';

const API_VERSION_HEADER = { 'x-supabase-api-version': '2024-01-01' };
const BCRYPT_COST = 10;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');
/**
 * An email link's token as GoTrue's looks (a SHA-224 in hex, `pkce_` first in the PKCE flow): it
 * is the `{{ .TokenHash }}` of the templates and the `token` of the /verify link. Only its hash
 * is stored.
 */
const newLinkToken = (pkce: boolean) => `${pkce ? PKCE_TOKEN_PREFIX : ''}${randomBytes(28).toString('hex')}`;
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The user object exactly as GoTrue returns it (never the password hash). */
export function publicUser(u: StoredUser): Record<string, unknown> {
  const identityData = { email: u.email, email_verified: Boolean(u.email_confirmed_at), phone_verified: false, sub: u.id };
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: u.email_confirmed_at ?? undefined,
    phone: '',
    confirmation_sent_at: u.confirmation_sent_at ?? undefined,
    confirmed_at: u.email_confirmed_at ?? undefined,
    recovery_sent_at: u.recovery_sent_at ?? undefined,
    new_email: u.email_change ?? undefined,
    email_change_sent_at: u.email_change_sent_at ?? undefined,
    last_sign_in_at: u.last_sign_in_at ?? undefined,
    app_metadata: { provider: 'email', providers: ['email'], ...u.raw_app_meta_data },
    user_metadata: { ...identityData, ...u.raw_user_meta_data },
    identities: [
      {
        identity_id: u.id,
        id: u.id,
        user_id: u.id,
        identity_data: identityData,
        provider: 'email',
        last_sign_in_at: u.last_sign_in_at ?? u.created_at,
        created_at: u.created_at,
        updated_at: u.updated_at,
        email: u.email,
      },
    ],
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: false,
  };
}

/**
 * The user GoTrue answers a sign-up of an already confirmed address with: a made-up id, no
 * identities, nothing confirmed, so the answer says nothing about who is registered.
 */
function obfuscatedUser(email: string, data: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** The seconds left before another email of a kind may go to a user, or 0. */
function secondsUntilResend(sentAt: string | null, now: number): number {
  if (!sentAt) return 0;
  const left = Date.parse(sentAt) + EMAIL_MAX_FREQUENCY_SECONDS * 1000 - now;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/**
 * The client address GoTrue's limiters key on. Hosted GoTrue reads it from its own gateway, which
 * sets it from the connection; the local gateway is that gateway, so it takes the socket's address
 * and never a client's X-Forwarded-For (rotating it used to escape every limit).
 */
function rateLimitKey(req: IncomingMessage): string {
  return clientIp(req);
}

/** GoTrue-compatible handlers for /auth/v1 (the subset the app uses, with GoTrue's shapes and codes). */
export class AuthService {
  private readonly redirects: RedirectPolicy;
  private readonly limits: { token: TokenBucketLimiter; signups: TokenBucketLimiter; verify: TokenBucketLimiter };
  private readonly emailBudget: HourlyBudget;
  private readonly now: () => number;

  constructor(private readonly deps: AuthDeps) {
    const { rateLimits, additionalRedirectUrls } = deps.config;
    this.now = deps.now ?? Date.now;
    this.redirects = new RedirectPolicy(deps.siteUrl, additionalRedirectUrls);
    this.limits = {
      token: new TokenBucketLimiter(rateLimits.tokenRefreshPer5Minutes, undefined, this.now),
      signups: new TokenBucketLimiter(rateLimits.signInSignUpsPer5Minutes, undefined, this.now),
      verify: new TokenBucketLimiter(rateLimits.tokenVerificationsPer5Minutes, undefined, this.now),
    };
    this.emailBudget = new HourlyBudget(rateLimits.emailSentPerHour, this.now);
  }

  /** GoTrue's per-IP limiter for a route, if it has one. */
  private limiterFor(route: string): TokenBucketLimiter | null {
    if (route === 'POST /token') return this.limits.token;
    if (route === 'POST /signup' || route === 'POST /recover' || route === 'PUT /user') return this.limits.signups;
    if (route === 'GET /verify' || route === 'POST /verify') return this.limits.verify;
    return null;
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    try {
      const route = `${req.method} ${path}`;
      const limiter = this.limiterFor(route);
      if (limiter && !limiter.take(rateLimitKey(req))) throw authErrors.tooManyRequests();
      if (route === 'POST /signup') return await this.signup(req, res, url);
      if (route === 'POST /token') return await this.token(req, res, url);
      if (route === 'GET /verify') return await this.verifyLink(res, url);
      if (route === 'POST /verify') return await this.verifyPost(req, res);
      if (route === 'GET /user') return await this.getUser(req, res);
      if (route === 'PUT /user') return await this.updateUser(req, res, url);
      if (route === 'POST /logout') return await this.logout(req, res, url);
      if (route === 'POST /recover') return await this.recover(req, res, url);
      if (route === 'GET /settings') return this.send(res, 200, this.settings());
      if (route === 'GET /health') return this.send(res, 200, { name: 'GoTrue (local)', version: 'local' });
      if (route === 'POST /admin/users') return await this.adminCreate(req, res);
      if (route === 'POST /invite') return await this.invite(req, res, url);
      const admin = /^\/admin\/users\/([0-9a-f-]{36})$/.exec(path);
      if (admin && req.method === 'DELETE') return await this.adminDelete(req, res, admin[1]!);
      if (admin && req.method === 'GET') return await this.adminGet(req, res, admin[1]!);
      throw authErrors.notFound();
    } catch (error) {
      if (error instanceof AuthError) return this.send(res, error.status, error.toJSON());
      console.error('[local stack] auth error', error);
      return this.send(res, 500, { code: 'unexpected_failure', message: 'Unexpected failure' });
    }
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    if (status === 204) {
      res.writeHead(204, API_VERSION_HEADER);
      res.end();
      return;
    }
    sendJson(res, status, body, API_VERSION_HEADER);
  }

  private settings() {
    return {
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: false,
      sms_provider: '',
    };
  }

  // --- users ---------------------------------------------------------------------------------

  private userByEmail(email: string) {
    return this.deps.rest.rpc<StoredUser | null>('user_by_email', { p_email: email });
  }

  private userById(id: string) {
    return this.deps.rest.rpc<StoredUser | null>('user_by_id', { p_id: id });
  }

  private updateStoredUser(id: string, patch: Record<string, unknown>) {
    return this.deps.rest.rpc<StoredUser | null>('update_user', { p_id: id, ...patch });
  }

  private checkPassword(password: unknown): string {
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
      throw authErrors.weakPassword(MIN_PASSWORD_LENGTH);
    }
    return password;
  }

  /** Creates a user (used by signup and the admin API). */
  async createUser(email: string, password: string, metadata: Record<string, unknown>, confirmed: boolean) {
    const hash = await bcrypt.hash(password, BCRYPT_COST);
    return this.deps.rest.rpc<StoredUser>('create_user', {
      p_email: email,
      p_password_hash: hash,
      p_user_metadata: metadata,
      p_confirmed: confirmed,
    });
  }

  // --- redirects and emails ------------------------------------------------------------------

  /** GoTrue redirects only to the site URL and the allowed URLs (redirect-policy.ts). */
  private safeRedirect(candidate: string | null | undefined, fallback: string): string {
    return this.redirects.resolve(candidate, fallback);
  }

  /**
   * Checks GoTrue's limits on an email of `action` to `user` (one a minute per user, the project's
   * hourly budget) before anything is written, so a refused request changes nothing.
   */
  private checkEmailLimits(user: StoredUser, action: EmailAction): void {
    const sentAt = { signup: user.confirmation_sent_at, recovery: user.recovery_sent_at, email_change: user.email_change_sent_at }[action];
    const wait = secondsUntilResend(sentAt, this.now());
    if (wait > 0) throw authErrors.sentTooRecently(wait);
    if (!this.emailBudget.spend()) throw authErrors.emailRateLimit();
  }

  /** For the PKCE flow, records the flow state the email's link will complete. */
  private async startFlow(user: StoredUser, action: EmailAction, flow: EmailFlow): Promise<void> {
    if (!flow.pkce) return;
    await this.deps.rest.rpc('create_flow_state', {
      p_user_id: user.id,
      p_auth_code: randomUUID(),
      p_code_challenge: flow.challenge.challenge,
      p_code_challenge_method: flow.challenge.method,
      p_authentication_method: action,
    });
  }

  /** Stores a one-time token of `tokenType` (its hash) and returns it with the /verify link that spends it. */
  private async issueLink(
    user: StoredUser,
    tokenType: string,
    action: EmailAction,
    redirectTo: string,
    flow: EmailFlow,
  ): Promise<IssuedLink> {
    const token = newLinkToken(flow.pkce);
    await this.deps.rest.rpc('issue_email_token', {
      p_user_id: user.id,
      p_type: tokenType,
      p_token_hash: sha256(token),
      p_redirect_to: redirectTo,
    });
    return {
      tokenHash: token,
      confirmationUrl: `${this.deps.apiUrl()}/auth/v1/verify?token=${token}&type=${action}&redirect_to=${encodeURIComponent(redirectTo)}`,
    };
  }

  private async sendEmailLink(user: StoredUser, type: 'signup' | 'recovery', redirectTo: string, flow: EmailFlow): Promise<void> {
    this.checkEmailLimits(user, type);
    await this.startFlow(user, type, flow);
    const link = await this.issueLink(user, type, type, redirectTo, flow);
    const vars = { ...link, redirectTo, email: user.email, siteUrl: this.deps.siteUrl };
    if (type === 'signup') {
      await this.updateStoredUser(user.id, { p_confirmation_sent: true });
      await this.deps.mailer.send('confirmation', user.email, vars);
    } else {
      await this.updateStoredUser(user.id, { p_recovery_sent: true });
      await this.deps.mailer.send('recovery', user.email, vars);
    }
  }

  /**
   * GoTrue's sendEmailChange: the address changes only once its links are followed: the one sent
   * to the new address and, with secure email change, the one sent to the current address too
   * (both with the email_change template). A new request replaces a pending one.
   */
  private async sendEmailChange(user: StoredUser, newEmail: string, redirectTo: string, flow: EmailFlow): Promise<StoredUser> {
    await this.startFlow(user, 'email_change', flow);
    const halves = [{ tokenType: 'email_change_new', to: newEmail }];
    if (this.deps.config.secureEmailChange) halves.push({ tokenType: 'email_change_current', to: user.email });
    const links = [];
    for (const half of halves)
      links.push({ to: half.to, link: await this.issueLink(user, half.tokenType, 'email_change', redirectTo, flow) });
    const pending = await this.deps.rest.rpc<StoredUser | null>('request_email_change', {
      p_user_id: user.id,
      p_new_email: newEmail,
      p_now: new Date(this.now()).toISOString(),
    });
    for (const { to, link } of links) {
      await this.deps.mailer.send('email_change', to, { ...link, redirectTo, email: user.email, newEmail, siteUrl: this.deps.siteUrl });
    }
    return pending ?? user;
  }

  // --- sessions ------------------------------------------------------------------------------

  private async accessToken(user: StoredUser, sessionId: string, method: string): Promise<string> {
    const pub = publicUser(user);
    const now = Math.floor(Date.now() / 1000);
    const claims: JwtClaims = {
      aud: 'authenticated',
      iss: `${this.deps.apiUrl()}/auth/v1`,
      sub: user.id,
      email: user.email,
      phone: '',
      app_metadata: pub.app_metadata as Record<string, unknown>,
      user_metadata: pub.user_metadata as Record<string, unknown>,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method, timestamp: now }],
      session_id: sessionId,
      is_anonymous: false,
    };
    return this.deps.jwt.sign(claims, ACCESS_TOKEN_TTL_SECONDS);
  }

  private async sessionResponse(user: StoredUser, sessionId: string, refreshToken: string, method: string) {
    const accessToken = await this.accessToken(user, sessionId, method);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      expires_at: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refreshToken,
      user: publicUser(user),
    };
  }

  private async newSession(user: StoredUser, method: string) {
    const refreshToken = randomToken();
    const sessionId = await this.deps.rest.rpc<string>('create_session', {
      p_user_id: user.id,
      p_refresh_token: refreshToken,
    });
    const signedIn = (await this.updateStoredUser(user.id, { p_signed_in: true })) ?? user;
    return this.sessionResponse(signedIn, sessionId, refreshToken, method);
  }

  /** The caller's verified claims and stored user, or GoTrue's 401/403 errors. */
  private async requireUser(req: IncomingMessage): Promise<{ claims: JwtClaims; user: StoredUser }> {
    const token = bearerToken(req);
    if (!token) throw authErrors.noAuthorization();
    const claims = await this.deps.jwt.verify(token);
    if (!claims?.sub) throw authErrors.badJwt();
    if (claims.session_id) {
      const exists = await this.deps.rest.rpc<boolean>('session_exists', { p_session_id: claims.session_id });
      if (!exists) throw authErrors.sessionNotFound();
    }
    const user = await this.userById(claims.sub);
    if (!user) throw authErrors.userNotFound();
    return { claims, user };
  }

  private async requireServiceRole(req: IncomingMessage): Promise<void> {
    const token = bearerToken(req);
    if (!token) throw authErrors.noAuthorization();
    const claims = await this.deps.jwt.verify(token);
    if (!claims) throw authErrors.badJwt();
    if (claims.role !== 'service_role') throw authErrors.notAdmin();
  }

  // --- endpoints -----------------------------------------------------------------------------

  private async signup(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = await readJson(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    const password = this.checkPassword(body.password);
    const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
    const flow = this.emailFlow(body);
    const redirectTo = this.safeRedirect(url.searchParams.get('redirect_to'), this.deps.siteUrl);

    const existing = await this.userByEmail(email);
    // A confirmed address: GoTrue answers as for a new sign-up, sends nothing, changes nothing.
    if (existing?.email_confirmed_at) return this.send(res, 200, obfuscatedUser(email, data));
    // Unconfirmed: GoTrue never updates the pending user (whoever signs up again may not own the
    // address); it only sends the confirmation again, at most once a minute.
    const user = existing ?? (await this.createUser(email, password, data, false));
    try {
      await this.sendEmailLink(user, 'signup', redirectTo, flow);
    } catch (error) {
      // GoTrue creates the user and sends its email in one transaction.
      if (!existing) await this.deps.rest.rpc('delete_user', { p_id: user.id });
      throw error;
    }
    const fresh = (await this.userById(user.id)) ?? user;
    this.send(res, 200, publicUser(fresh));
  }

  /** The PKCE challenge a sign-up or recovery sent (supabase-js flowType 'pkce'), if any. */
  private emailFlow(body: Record<string, unknown>): EmailFlow {
    const challenge = readCodeChallenge(body);
    return challenge ? { pkce: true, challenge } : { pkce: false };
  }

  private async token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const grant = url.searchParams.get('grant_type');
    const body = await readJson(req);
    if (grant === 'password') {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const user = email ? await this.userByEmail(email) : null;
      const ok = user?.encrypted_password ? await bcrypt.compare(password, user.encrypted_password) : false;
      if (!user || !ok) throw authErrors.invalidCredentials();
      if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
      return this.send(res, 200, await this.newSession(user, 'password'));
    }
    if (grant === 'refresh_token') {
      const presented = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const rotated = await this.deps.rest.rpc<{
        status: 'ok' | 'not_found' | 'revoked';
        user_id?: string;
        session_id?: string;
        refresh_token?: string;
      }>('rotate_refresh_token', {
        p_token: presented,
        p_new_token: randomToken(),
        p_reuse_seconds: REFRESH_REUSE_INTERVAL_SECONDS,
        p_now: new Date(this.now()).toISOString(),
      });
      if (rotated.status === 'not_found') throw authErrors.refreshTokenNotFound();
      if (rotated.status === 'revoked') throw authErrors.refreshTokenAlreadyUsed();
      const user = await this.userById(rotated.user_id!);
      if (!user) throw authErrors.refreshTokenNotFound();
      return this.send(res, 200, await this.sessionResponse(user, rotated.session_id!, rotated.refresh_token!, 'token_refresh'));
    }
    if (grant === 'pkce') return this.send(res, 200, await this.exchangeAuthCode(body));
    throw authErrors.unsupportedGrant();
  }

  /** /token?grant_type=pkce: an auth code from a followed link plus the verifier → a session. */
  private async exchangeAuthCode(body: Record<string, unknown>) {
    const authCode = typeof body.auth_code === 'string' ? body.auth_code : '';
    const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
    if (!authCode || !verifier) throw authErrors.pkceParamsMissing();
    const flow = await this.deps.rest.rpc<{
      user_id: string;
      code_challenge: string;
      code_challenge_method: CodeChallenge['method'];
      authentication_method: EmailAction;
      auth_code_issued_at: string | null;
    } | null>('flow_state_by_code', { p_auth_code: authCode });
    if (!flow?.auth_code_issued_at) throw authErrors.flowStateNotFound();
    if (Date.parse(flow.auth_code_issued_at) + FLOW_STATE_TTL_SECONDS * 1000 < this.now()) throw authErrors.flowStateExpired();
    if (!verifierMatches(verifier, { challenge: flow.code_challenge, method: flow.code_challenge_method })) {
      throw authErrors.badCodeVerifier();
    }
    // One exchange per code, even when two arrive at once.
    if (!(await this.deps.rest.rpc<boolean>('consume_flow_state', { p_auth_code: authCode }))) throw authErrors.flowStateNotFound();
    const user = await this.userById(flow.user_id);
    if (!user) throw authErrors.flowStateNotFound();
    return this.newSession(user, flow.authentication_method === 'recovery' ? 'recovery' : 'otp');
  }

  /**
   * Whether the link of a stored token of `tokenType` has expired: as GoTrue's isOtpExpired, when
   * the user's last email of that kind went out more than the OTP expiry ago (auth's clock).
   */
  private linkExpired(user: StoredUser, tokenType: string): boolean {
    const sentAt =
      tokenType === 'signup' ? user.confirmation_sent_at : tokenType === 'recovery' ? user.recovery_sent_at : user.email_change_sent_at;
    return !sentAt || Date.parse(sentAt) + EMAIL_LINK_TTL_SECONDS * 1000 < this.now();
  }

  /**
   * Spends an emailed token (`tokenHash`, the link's token): the user it signs in (address
   * confirmed), or an email change's first link. Once only: a used, unknown or expired token, or
   * one of another type, is GoTrue's 403 otp_expired "Email link is invalid or has expired".
   */
  private async consumeEmailToken(tokenHash: string, type: string): Promise<ConsumedLink> {
    const kinds = TOKENS_BY_TYPE[type];
    if (!kinds) throw authErrors.invalidVerificationType();
    let consumed: { user_id: string; redirect_to: string | null; type: string } | null = null;
    for (const kind of kinds) {
      consumed = await this.deps.rest.rpc<{ user_id: string; redirect_to: string | null; type: string } | null>('consume_email_token', {
        p_token_hash: sha256(tokenHash),
        p_type: kind,
        p_max_age_seconds: EMAIL_LINK_TTL_SECONDS,
      });
      if (consumed) break;
    }
    if (!consumed) throw authErrors.otpExpired();
    const holder = await this.userById(consumed.user_id);
    if (!holder || this.linkExpired(holder, consumed.type)) throw authErrors.otpExpired();
    if (consumed.type.startsWith('email_change')) {
      const outcome = await this.deps.rest.rpc<{ status: 'pending' | 'changed' | 'email_exists'; user?: StoredUser } | null>(
        'confirm_email_change',
        {
          p_user_id: consumed.user_id,
          p_secure: this.deps.config.secureEmailChange,
        },
      );
      if (!outcome) throw authErrors.otpExpired();
      if (outcome.status === 'email_exists') throw authErrors.emailExists();
      if (outcome.status === 'pending') return { pending: true, redirectTo: consumed.redirect_to };
      return { user: outcome.user!, redirectTo: consumed.redirect_to, type: 'email_change', verifiedAs: 'email_change' };
    }
    // Following either link proves the address.
    const user = await this.updateStoredUser(consumed.user_id, { p_confirm: true });
    if (!user) throw authErrors.otpExpired();
    const action = consumed.type as EmailAction;
    // GoTrue's `email` goes on as signup (a confirmation token) or magiclink (a recovery token).
    const verifiedAs = type === 'email' ? (action === 'recovery' ? 'magiclink' : 'signup') : type;
    return { user, redirectTo: consumed.redirect_to, type: action, verifiedAs };
  }

  /** A followed link's session: GoTrue issues it with the `otp` method whatever the link was. */
  private linkSession(link: Extract<ConsumedLink, { user: StoredUser }>) {
    return this.newSession(link.user, 'otp');
  }

  /**
   * GET /verify, GoTrue's `{{ .ConfirmationURL }}`: what the emails linked to before the token-hash links (they
   * now link to the site with `{{ .TokenHash }}`, see verifyPost), so links already sent still work.
   * Implicit flow: 303 to redirect_to#access_token=…&type=….
   * PKCE flow (token prefixed pkce_): 303 to redirect_to?code=… and only the browser holding the
   * code verifier can turn that into a session. Errors go in the fragment (and, for PKCE, the
   * query), as GoTrue sends them.
   */
  private async verifyLink(res: ServerResponse, url: URL): Promise<void> {
    const type = url.searchParams.get('type') ?? '';
    const token = url.searchParams.get('token') ?? '';
    // GoTrue validates these before anything else, and answers in JSON, not with a redirect.
    if (!type) throw authErrors.verifyTypeRequired();
    if (!token) throw authErrors.verifyTokenRequired();
    const pkce = token.startsWith(PKCE_TOKEN_PREFIX);
    const fallback = type === 'recovery' ? `${this.deps.siteUrl}/auth/callback` : this.deps.siteUrl;
    const requested = this.safeRedirect(url.searchParams.get('redirect_to'), fallback);
    let location: URL;
    try {
      const link = await this.consumeEmailToken(token, type);
      location = new URL(this.safeRedirect(link.redirectTo, requested));
      if ('pending' in link) {
        // The first of an email change's two links: nothing to sign in yet, only GoTrue's message.
        if (pkce) location.searchParams.set('message', SINGLE_CONFIRMATION);
        location.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: '' }).toString();
      } else if (pkce) {
        const code = await this.deps.rest.rpc<string | null>('issue_auth_code', {
          p_user_id: link.user.id,
          p_authentication_method: link.type,
          p_now: new Date(this.now()).toISOString(),
        });
        if (!code) throw authErrors.flowStateNotFound();
        location.searchParams.set('code', code);
      } else {
        const session = await this.linkSession(link);
        location.hash = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          type: link.verifiedAs,
        }).toString();
      }
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      location = new URL(requested);
      const details = {
        error: error.status === 403 ? 'access_denied' : 'invalid_request',
        error_code: error.code,
        error_description: error.message,
      };
      if (pkce) for (const [k, v] of Object.entries(details)) location.searchParams.set(k, v);
      location.hash = new URLSearchParams({ ...details, sb: '' }).toString();
    }
    res.writeHead(303, { location: location.toString() });
    res.end();
  }

  /**
   * POST /verify, what supabase-js's verifyOtp sends. With `{ token_hash, type }` (a link's token,
   * from a template's `{{ .TokenHash }}`) it answers the session itself, so the link works in any
   * browser: no redirect, no PKCE verifier. The first of an email change's two links answers
   * GoTrue's `{ msg, code }` instead. The checks and their order are GoTrue's VerifyParams.Validate.
   */
  private async verifyPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const type = text(body.type);
    const token = text(body.token);
    const tokenHash = text(body.token_hash);
    if (!type) throw authErrors.verifyTypeRequired();
    if (Boolean(token) === Boolean(tokenHash)) throw authErrors.verifyTokenOrHash();
    if (token) {
      // A 6-digit OTP with its address: the local auth's emails carry links only (no
      // `{{ .Token }}`), so no OTP can match; GoTrue answers a wrong one like this.
      if (Boolean(text(body.email)) === Boolean(text(body.phone))) throw authErrors.verifyEmailOrPhone();
      throw authErrors.otpInvalid();
    }
    if (text(body.email) || text(body.phone) || text(body.redirect_to)) throw authErrors.verifyOnlyTokenHash();
    const link = await this.consumeEmailToken(tokenHash, type);
    if ('pending' in link) return this.send(res, 200, { msg: SINGLE_CONFIRMATION, code: '200' });
    this.send(res, 200, await this.linkSession(link));
  }

  private async getUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { user } = await this.requireUser(req);
    this.send(res, 200, publicUser(user));
  }

  /** The new address a PUT /user asks for (null: none, or the current one), refused as GoTrue refuses it. */
  private async requestedEmail(body: Record<string, unknown>, user: StoredUser): Promise<string | null> {
    if (typeof body.email !== 'string' || body.email.trim() === '') return null;
    const email = body.email.trim().toLowerCase();
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    if (email === user.email) return null;
    const holder = await this.userByEmail(email);
    if (holder && holder.id !== user.id) throw authErrors.emailExists();
    return email;
  }

  private async updateUser(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { user } = await this.requireUser(req);
    const body = await readJson(req);
    const newEmail = await this.requestedEmail(body, user);
    const patch: Record<string, unknown> = {};
    if (body.password !== undefined && body.password !== null) {
      const password = this.checkPassword(body.password);
      if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
        throw authErrors.samePassword();
      }
      patch.p_password_hash = await bcrypt.hash(password, BCRYPT_COST);
    }
    if (body.data && typeof body.data === 'object') patch.p_user_metadata = body.data;
    // GoTrue checks the email limits in the same transaction as the other changes: a refusal changes nothing.
    if (newEmail) this.checkEmailLimits(user, 'email_change');
    const updated = (Object.keys(patch).length ? await this.updateStoredUser(user.id, patch) : user) ?? user;
    const answered = newEmail
      ? await this.sendEmailChange(
          updated,
          newEmail,
          this.safeRedirect(url.searchParams.get('redirect_to'), this.deps.siteUrl),
          this.emailFlow(body),
        )
      : updated;
    this.send(res, 200, publicUser(answered));
  }

  private async logout(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = bearerToken(req);
    const claims = await this.deps.jwt.verify(token);
    if (!claims?.sub) throw authErrors.badJwt();
    const scope = url.searchParams.get('scope') ?? 'global';
    await this.deps.rest.rpc('logout', { p_user_id: claims.sub, p_session_id: claims.session_id ?? null, p_scope: scope });
    this.send(res, 204, null);
  }

  private async recover(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = await readJson(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    const flow = this.emailFlow(body);
    const redirectTo = this.safeRedirect(url.searchParams.get('redirect_to'), `${this.deps.siteUrl}/auth/callback`);
    const user = await this.userByEmail(email);
    // Same answer whether or not the address is known (no account enumeration).
    if (user) await this.sendEmailLink(user, 'recovery', redirectTo, flow);
    this.send(res, 200, {});
  }

  private async adminCreate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.requireServiceRole(req);
    const body = await readJson(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    const password = this.checkPassword(body.password);
    if (await this.userByEmail(email)) throw authErrors.emailExists();
    const meta = body.user_metadata && typeof body.user_metadata === 'object' ? (body.user_metadata as Record<string, unknown>) : {};
    const user = await this.createUser(email, password, meta, body.email_confirm === true);
    this.send(res, 200, publicUser(user));
  }

  /**
   * GoTrue's POST /invite (service role; supabase-js `auth.admin.inviteUserByEmail`): creates the
   * user with no password anyone knows and sends the invite template, whose link (type invite) signs
   * them in once to choose one. A registered, confirmed address is refused as GoTrue refuses it; an
   * unconfirmed one is invited again (at most once a minute).
   */
  private async invite(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    await this.requireServiceRole(req);
    const body = await readJson(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
    const redirectTo = this.safeRedirect(url.searchParams.get('redirect_to'), this.deps.siteUrl);
    const existing = await this.userByEmail(email);
    if (existing?.email_confirmed_at) throw authErrors.emailExists();
    const user = existing ?? (await this.createUser(email, randomBytes(32).toString('base64url'), data, false));
    this.checkEmailLimits(user, 'signup');
    const link = await this.issueLink(user, 'signup', 'signup', redirectTo, { pkce: false });
    await this.updateStoredUser(user.id, { p_confirmation_sent: true });
    await this.deps.mailer.send('invite', user.email, { ...link, redirectTo, email: user.email, siteUrl: this.deps.siteUrl });
    this.send(res, 200, publicUser(user));
  }

  private async adminGet(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    await this.requireServiceRole(req);
    const user = await this.userById(id);
    if (!user) throw authErrors.userNotFoundAdmin();
    this.send(res, 200, publicUser(user));
  }

  private async adminDelete(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    await this.requireServiceRole(req);
    const user = await this.userById(id);
    if (!user) throw authErrors.userNotFoundAdmin();
    await this.deps.rest.rpc('delete_user', { p_id: id });
    this.send(res, 200, {});
  }
}
