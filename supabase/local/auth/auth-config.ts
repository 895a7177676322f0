import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { repoRoot } from '../config';

/**
 * GoTrue's per-IP request limits (tollbooth token buckets: `per5Minutes` refill, burst 30) and
 * the project-wide email budget, as `[auth.rate_limit]` of supabase/config.toml sets them for the
 * hosted project (`supabase config push`).
 */
export interface AuthRateLimits {
  /** Emails auth may send per hour, whole project (sign-up confirmations, recoveries). */
  emailSentPerHour: number;
  /** POST /signup, POST /recover, PUT /user per IP. */
  signInSignUpsPer5Minutes: number;
  /** POST /token (password, refresh_token, pkce) per IP. */
  tokenRefreshPer5Minutes: number;
  /** /verify per IP. */
  tokenVerificationsPer5Minutes: number;
}

export interface AuthConfig {
  /** `[auth] site_url`: the default redirect, and always allowed. */
  siteUrl: string;
  /** `[auth] additional_redirect_urls`: the other allowed redirects (GoTrue globs). */
  additionalRedirectUrls: string[];
  rateLimits: AuthRateLimits;
  /**
   * `[auth.email] double_confirm_changes` (GoTrue's MAILER_SECURE_EMAIL_CHANGE_ENABLED): an email
   * change needs the links sent to both the current and the new address, not only the new one.
   */
  secureEmailChange: boolean;
}

/** The Supabase CLI's defaults for `[auth.rate_limit]` (hosted projects start with these). */
const CLI_DEFAULT_RATE_LIMITS: AuthRateLimits = {
  emailSentPerHour: 2,
  signInSignUpsPer5Minutes: 30,
  tokenRefreshPer5Minutes: 150,
  tokenVerificationsPer5Minutes: 30,
};

type Toml = {
  auth?: {
    site_url?: string;
    additional_redirect_urls?: string[];
    rate_limit?: Record<string, number>;
    email?: { double_confirm_changes?: boolean };
  };
};

/** Reads the auth settings the local GoTrue honours from supabase/config.toml. */
export function readAuthConfig(path = `${repoRoot}supabase/config.toml`): AuthConfig {
  const toml = parse(readFileSync(path, 'utf8')) as Toml;
  const auth = toml.auth ?? {};
  const limits = auth.rate_limit ?? {};
  return {
    siteUrl: auth.site_url ?? 'http://127.0.0.1:3000',
    additionalRedirectUrls: auth.additional_redirect_urls ?? [],
    rateLimits: {
      emailSentPerHour: limits.email_sent ?? CLI_DEFAULT_RATE_LIMITS.emailSentPerHour,
      signInSignUpsPer5Minutes: limits.sign_in_sign_ups ?? CLI_DEFAULT_RATE_LIMITS.signInSignUpsPer5Minutes,
      tokenRefreshPer5Minutes: limits.token_refresh ?? CLI_DEFAULT_RATE_LIMITS.tokenRefreshPer5Minutes,
      tokenVerificationsPer5Minutes: limits.token_verifications ?? CLI_DEFAULT_RATE_LIMITS.tokenVerificationsPer5Minutes,
    },
    // On unless turned off, as on hosted projects and in the Supabase CLI.
    secureEmailChange: auth.email?.double_confirm_changes ?? true,
  };
}
