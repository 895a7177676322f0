import { jwtVerify, SignJWT, type JWTPayload } from 'jose';

export type JwtClaims = JWTPayload & {
  role?: string;
  email?: string;
  session_id?: string;
  user_metadata?: Record<string, unknown>;
  app_metadata?: Record<string, unknown>;
};

/** HS256 signing and verification with the project's JWT secret (what PostgREST also checks). */
export class JwtKeys {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: JwtClaims, expiresInSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token, or null. */
  async verify(token: string | undefined | null): Promise<JwtClaims | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      return payload;
    } catch {
      return null;
    }
  }

  /** The anon and service-role API keys for this secret (long-lived, like Supabase's). */
  async apiKeys(): Promise<{ anonKey: string; serviceRoleKey: string }> {
    const tenYears = 10 * 365 * 24 * 3600;
    return {
      anonKey: await this.sign({ role: 'anon', iss: 'supabase-local' }, tenYears),
      serviceRoleKey: await this.sign({ role: 'service_role', iss: 'supabase-local' }, tenYears),
    };
  }
}
