import { createHash, timingSafeEqual } from 'node:crypto';
import { authErrors } from './auth-errors';

/** A PKCE code challenge as supabase-js sends it (RFC 7636; GoTrue accepts s256 and plain). */
export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

const CHALLENGE_PATTERN = /^[a-zA-Z._~0-9-]{43,128}$/;

/**
 * The code challenge of a sign-up or recovery body, null for the implicit flow. GoTrue refuses
 * a challenge without its method (and the reverse) or one of the wrong shape.
 */
export function readCodeChallenge(body: Record<string, unknown>): CodeChallenge | null {
  const challenge = typeof body.code_challenge === 'string' ? body.code_challenge : '';
  const rawMethod = typeof body.code_challenge_method === 'string' ? body.code_challenge_method.toLowerCase() : '';
  if (!challenge && !rawMethod) return null;
  if (!challenge || !rawMethod) throw authErrors.invalidPkceParams();
  if (!CHALLENGE_PATTERN.test(challenge) || (rawMethod !== 's256' && rawMethod !== 'plain')) throw authErrors.invalidCodeChallenge();
  return { challenge, method: rawMethod };
}

/** The challenge a verifier answers to with `method`. */
export function codeChallengeOf(verifier: string, method: CodeChallenge['method']): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}

export function verifierMatches(verifier: string, stored: CodeChallenge): boolean {
  const expected = Buffer.from(stored.challenge);
  const actual = Buffer.from(codeChallengeOf(verifier, stored.method));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
