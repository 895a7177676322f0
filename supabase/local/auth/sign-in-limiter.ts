import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_FAILURE_WINDOW_MS } from '../config';

/** Counts failed password sign-ins per email and IP; refuses further attempts past the limit. */
export class SignInLimiter {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limit = SIGN_IN_FAILURE_LIMIT,
    private readonly windowMs = SIGN_IN_FAILURE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  private key(email: string, ip: string): string {
    return `${email.toLowerCase()}|${ip}`;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  isBlocked(email: string, ip: string): boolean {
    return this.recent(this.key(email, ip)).length >= this.limit;
  }

  recordFailure(email: string, ip: string): void {
    const key = this.key(email, ip);
    this.failures.set(key, [...this.recent(key), this.now()]);
  }

  reset(email: string, ip: string): void {
    this.failures.delete(this.key(email, ip));
  }
}
