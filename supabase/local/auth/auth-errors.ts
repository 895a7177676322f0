/** An error answered in GoTrue's shape: `{ code, message }` with its HTTP status. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.extra };
  }
}

export const authErrors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  // GoTrue's per-IP limiter (the app maps any 429 on sign-in to its own wording).
  tooManyRequests: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimit: () => new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded'),
  /** An email of this kind went to this user less than a minute ago (GoTrue's max frequency). */
  sentTooRecently: (seconds: number) =>
    new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${seconds} seconds.`),
  invalidPkceParams: () => new AuthError(400, 'validation_failed', 'PKCE flow requires code_challenge_method and code_challenge'),
  invalidCodeChallenge: () =>
    new AuthError(
      400,
      'validation_failed',
      'code challenge has to be between 43 and 128 characters and only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    ),
  pkceParamsMissing: () => new AuthError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty'),
  flowStateNotFound: () => new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found'),
  flowStateExpired: () => new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired'),
  badCodeVerifier: () => new AuthError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier'),
  weakPassword: (min: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  emailExists: () => new AuthError(422, 'email_exists', 'A user with this email address has already been registered'),
  samePassword: () => new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  invalidEmail: () => new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  missingEmailOrPassword: () => new AuthError(400, 'validation_failed', 'Signup requires a valid password'),
  noAuthorization: () => new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token'),
  badJwt: () => new AuthError(401, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is expired'),
  userNotFound: () => new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  sessionNotFound: () => new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  refreshTokenNotFound: () => new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () => new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired'),
  /** POST /verify with a `token` (the 6-digit OTP) that matches nothing. */
  otpInvalid: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  // GoTrue's VerifyParams.Validate and verifyTokenHash (internal/api/verify.go).
  verifyTypeRequired: () => new AuthError(400, 'validation_failed', 'Verify requires a verification type'),
  verifyTokenRequired: () => new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash'),
  verifyTokenOrHash: () => new AuthError(400, 'validation_failed', 'Verify requires either a token or a token hash'),
  verifyOnlyTokenHash: () => new AuthError(400, 'validation_failed', 'Only the token_hash and type should be provided'),
  verifyEmailOrPhone: () => new AuthError(400, 'validation_failed', 'Only an email address or phone number should be provided on verify'),
  invalidVerificationType: () => new AuthError(400, 'validation_failed', 'Invalid email verification type'),
  unsupportedGrant: () => new AuthError(400, 'invalid_credentials', 'unsupported_grant_type'),
  notFound: () => new AuthError(404, 'not_found', 'Not found'),
  userNotFoundAdmin: () => new AuthError(404, 'user_not_found', 'User not found'),
};
