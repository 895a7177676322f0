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
  tooManyRequests: () => new AuthError(429, 'over_request_rate_limit', 'Too many requests'),
  weakPassword: (min: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  invalidEmail: () => new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  missingEmailOrPassword: () => new AuthError(400, 'validation_failed', 'Signup requires a valid password'),
  noAuthorization: () => new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token'),
  badJwt: () => new AuthError(401, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is expired'),
  userNotFound: () => new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  sessionNotFound: () => new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  refreshTokenNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired'),
  unsupportedGrant: () => new AuthError(400, 'validation_failed', 'unsupported_grant_type'),
  notFound: () => new AuthError(404, 'not_found', 'Not found'),
  userNotFoundAdmin: () => new AuthError(404, 'user_not_found', 'User not found'),
};
