import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import bcrypt from 'bcryptjs';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  EMAIL_LINK_TTL_SECONDS,
  MIN_PASSWORD_LENGTH,
  REFRESH_REUSE_INTERVAL_SECONDS,
} from '../config';
import { bearerToken, clientIp, readJson, sendJson } from '../http-util';
import type { JwtClaims, JwtKeys } from '../jwt';
import type { RestClient } from '../rest-client';
import { AuthError, authErrors } from './auth-errors';
import type { AuthMailer } from './auth-mailer';
import { SignInLimiter } from './sign-in-limiter';

/** A row of auth.users as the gateway RPCs return it. */
export interface StoredUser {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
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
}

const API_VERSION_HEADER = { 'x-supabase-api-version': '2024-01-01' };
const BCRYPT_COST = 10;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');

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

/** GoTrue-compatible handlers for /auth/v1 (the subset the app uses, with GoTrue's shapes and codes). */
export class AuthService {
  readonly limiter = new SignInLimiter();

  constructor(private readonly deps: AuthDeps) {}

  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    try {
      const route = `${req.method} ${path}`;
      if (route === 'POST /signup') return await this.signup(req, res, url);
      if (route === 'POST /token') return await this.token(req, res, url);
      if (route === 'GET /verify') return await this.verifyLink(res, url);
      if (route === 'POST /verify') return await this.verifyPost(req, res);
      if (route === 'GET /user') return await this.getUser(req, res);
      if (route === 'PUT /user') return await this.updateUser(req, res);
      if (route === 'POST /logout') return await this.logout(req, res, url);
      if (route === 'POST /recover') return await this.recover(req, res, url);
      if (route === 'GET /settings') return this.send(res, 200, this.settings());
      if (route === 'GET /health') return this.send(res, 200, { name: 'GoTrue (local)', version: 'local' });
      if (route === 'POST /admin/users') return await this.adminCreate(req, res);
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

  /** GoTrue only redirects to the site URL or allowed URLs; loopback stands in for the allow list. */
  private safeRedirect(candidate: string | null | undefined, fallback: string): string {
    if (!candidate) return fallback;
    try {
      const target = new URL(candidate);
      const site = new URL(this.deps.siteUrl);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(target.hostname);
      if (target.origin === site.origin || loopback) return candidate;
    } catch {
      // not a URL
    }
    return fallback;
  }

  private async sendEmailLink(user: StoredUser, type: 'signup' | 'recovery', redirectTo: string): Promise<void> {
    const token = randomToken();
    await this.deps.rest.rpc('issue_email_token', {
      p_user_id: user.id,
      p_type: type,
      p_token_hash: sha256(token),
      p_redirect_to: redirectTo,
    });
    const link = `${this.deps.apiUrl()}/auth/v1/verify?token=${token}&type=${type}&redirect_to=${encodeURIComponent(redirectTo)}`;
    const vars = { confirmationUrl: link, email: user.email, siteUrl: this.deps.siteUrl };
    if (type === 'signup') {
      await this.updateStoredUser(user.id, { p_confirmation_sent: true });
      await this.deps.mailer.send('confirmation', user.email, vars);
    } else {
      await this.updateStoredUser(user.id, { p_recovery_sent: true });
      await this.deps.mailer.send('recovery', user.email, vars);
    }
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
    const redirectTo = this.safeRedirect(url.searchParams.get('redirect_to'), this.deps.siteUrl);

    let user = await this.userByEmail(email);
    if (user?.email_confirmed_at) throw authErrors.userAlreadyExists();
    if (user) {
      // Unconfirmed: GoTrue updates the pending user and sends the confirmation again.
      user =
        (await this.updateStoredUser(user.id, {
          p_password_hash: await bcrypt.hash(password, BCRYPT_COST),
          p_user_metadata: data,
        })) ?? user;
    } else {
      user = await this.createUser(email, password, data, false);
    }
    await this.sendEmailLink(user, 'signup', redirectTo);
    const fresh = (await this.userById(user.id)) ?? user;
    this.send(res, 200, publicUser(fresh));
  }

  private async token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const grant = url.searchParams.get('grant_type');
    const body = await readJson(req);
    if (grant === 'password') {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const ip = clientIp(req);
      if (this.limiter.isBlocked(email, ip)) throw authErrors.tooManyRequests();
      const user = email ? await this.userByEmail(email) : null;
      const ok = user?.encrypted_password ? await bcrypt.compare(password, user.encrypted_password) : false;
      if (!user || !ok) {
        this.limiter.recordFailure(email, ip);
        throw authErrors.invalidCredentials();
      }
      if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
      this.limiter.reset(email, ip);
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
      });
      if (rotated.status === 'not_found') throw authErrors.refreshTokenNotFound();
      if (rotated.status === 'revoked') throw authErrors.refreshTokenAlreadyUsed();
      const user = await this.userById(rotated.user_id!);
      if (!user) throw authErrors.refreshTokenNotFound();
      return this.send(res, 200, await this.sessionResponse(user, rotated.session_id!, rotated.refresh_token!, 'token_refresh'));
    }
    throw authErrors.unsupportedGrant();
  }

  /** Confirms an emailed token; returns the session and where to send the browser. */
  private async consumeEmailToken(tokenHash: string, type: string) {
    const consumed = await this.deps.rest.rpc<{ user_id: string; redirect_to: string | null; type: string } | null>(
      'consume_email_token',
      { p_token_hash: tokenHash, p_type: type, p_max_age_seconds: EMAIL_LINK_TTL_SECONDS },
    );
    if (!consumed) throw authErrors.otpExpired();
    // Following either link proves the address.
    const user = await this.updateStoredUser(consumed.user_id, { p_confirm: true });
    if (!user) throw authErrors.otpExpired();
    const session = await this.newSession(user, consumed.type === 'recovery' ? 'recovery' : 'otp');
    return { session, redirectTo: consumed.redirect_to, type: consumed.type };
  }

  private async verifyLink(res: ServerResponse, url: URL): Promise<void> {
    const type = url.searchParams.get('type') ?? 'signup';
    const token = url.searchParams.get('token') ?? '';
    const fallback = type === 'recovery' ? `${this.deps.siteUrl}/auth/callback` : this.deps.siteUrl;
    const requested = this.safeRedirect(url.searchParams.get('redirect_to'), fallback);
    try {
      const { session, redirectTo } = await this.consumeEmailToken(sha256(token), type);
      const target = this.safeRedirect(redirectTo, requested);
      const fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type,
      });
      res.writeHead(303, { location: `${target.split('#')[0]}#${fragment.toString()}` });
      res.end();
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const fragment = new URLSearchParams({
        error: 'access_denied',
        error_code: error.code,
        error_description: error.message,
      });
      res.writeHead(303, { location: `${requested.split('#')[0]}#${fragment.toString()}` });
      res.end();
    }
  }

  private async verifyPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const type = typeof body.type === 'string' ? body.type : 'signup';
    const raw = typeof body.token_hash === 'string' ? body.token_hash : typeof body.token === 'string' ? body.token : '';
    const { session } = await this.consumeEmailToken(sha256(raw), type);
    this.send(res, 200, session);
  }

  private async getUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { user } = await this.requireUser(req);
    this.send(res, 200, publicUser(user));
  }

  private async updateUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { user } = await this.requireUser(req);
    const body = await readJson(req);
    const patch: Record<string, unknown> = {};
    if (body.password !== undefined && body.password !== null) {
      const password = this.checkPassword(body.password);
      if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
        throw authErrors.samePassword();
      }
      patch.p_password_hash = await bcrypt.hash(password, BCRYPT_COST);
    }
    if (body.data && typeof body.data === 'object') patch.p_user_metadata = body.data;
    const updated = Object.keys(patch).length ? await this.updateStoredUser(user.id, patch) : user;
    this.send(res, 200, publicUser(updated ?? user));
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
    const redirectTo = this.safeRedirect(url.searchParams.get('redirect_to'), `${this.deps.siteUrl}/auth/callback`);
    const user = await this.userByEmail(email);
    // Same answer whether or not the address is known (no account enumeration).
    if (user) await this.sendEmailLink(user, 'recovery', redirectTo);
    this.send(res, 200, {});
  }

  private async adminCreate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.requireServiceRole(req);
    const body = await readJson(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL_RE.test(email)) throw authErrors.invalidEmail();
    const password = this.checkPassword(body.password);
    if (await this.userByEmail(email)) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
    }
    const meta = body.user_metadata && typeof body.user_metadata === 'object' ? (body.user_metadata as Record<string, unknown>) : {};
    const user = await this.createUser(email, password, meta, body.email_confirm === true);
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
