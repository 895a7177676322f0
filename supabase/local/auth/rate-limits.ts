/** GoTrue's burst for every per-IP limiter. */
export const GOTRUE_BURST = 30;

/**
 * GoTrue's request limits: a token bucket per key (tollbooth: `perFiveMinutes` tokens refilled
 * over 5 minutes, at most `burst` at once), keyed by client IP, never by email.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    perFiveMinutes: number,
    private readonly burst = GOTRUE_BURST,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perFiveMinutes / (5 * 60 * 1000);
  }

  /** Takes one request's token for `key`; false when the bucket is empty (answer 429). */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return false;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return true;
  }
}

/** At most `limit` events in any rolling hour (GoTrue's project-wide email budget). */
export class HourlyBudget {
  private events: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends one unit; false (nothing spent) when the hour's budget is used up. */
  spend(): boolean {
    const since = this.now() - 60 * 60 * 1000;
    this.events = this.events.filter((t) => t > since);
    if (this.events.length >= this.limit) return false;
    this.events.push(this.now());
    return true;
  }
}
