import webpush from 'web-push';
import { pushEndpointAllowed } from './push-endpoint';
import type { PushEnv } from './push-env';
import { pushPayload } from './push-payload';
import type { OutboxPush, PushStore } from './push-store';

/** How the request reaches the push service (fetch; a test's fake). */
export type PushFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | null; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

export type PushDeliveryOptions = {
  store: PushStore;
  vapid: PushEnv;
  /** What is due is decided as of this time (the scheduled run's, or a test's). */
  now: Date;
  /**
   * Whether the local stack's push service on loopback may be posted to (`loopbackPushesAllowed`
   * of the database the pushes come from); otherwise only the browsers' push services.
   */
  allowLoopback?: boolean;
  fetch?: PushFetch;
  batchSize?: number;
  budgetMs?: number;
  log?: Pick<Console, 'error' | 'warn'>;
};

export type PushDeliveryReport = { sent: number; retrying: number; failed: number; gone: number };

const DEFAULT_BATCH = 25;
/** Inside a scheduled function's 30 seconds with one slow push service to spare. */
const DEFAULT_BUDGET_MS = 12_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** A push without an expiry (a failed payment) waits a day at most for an offline device. */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;
/** The push service's answers meaning the subscription no longer exists (RFC 8030, section 7.3). */
const GONE = new Set([404, 410]);

/** Seconds the push service keeps the message for a device that is offline: until the class starts. */
export function timeToLive(row: Pick<OutboxPush, 'expires_at'>, now: Date): number {
  if (!row.expires_at) return DEFAULT_TTL_SECONDS;
  return Math.max(0, Math.min(DEFAULT_TTL_SECONDS, Math.floor((Date.parse(row.expires_at) - now.getTime()) / 1000)));
}

/**
 * The request web-push builds for one push: the payload encrypted for the device (RFC 8291,
 * aes128gcm) and the VAPID Authorization header (RFC 8292). Sent with fetch, so a local push
 * service on http://127.0.0.1 works as a real one on https.
 */
export function pushRequest(row: OutboxPush, vapid: PushEnv, now: Date) {
  const details = webpush.generateRequestDetails(
    { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
    JSON.stringify(pushPayload(row)),
    {
      vapidDetails: vapid,
      TTL: timeToLive(row, now),
      urgency: row.kind === 'payment_failed' ? 'normal' : 'high',
      contentEncoding: 'aes128gcm',
    },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch sets the length itself.
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  }
  const body: Uint8Array<ArrayBuffer> | null = details.body ? new Uint8Array(details.body) : null;
  return { url: details.endpoint, method: details.method, headers, body };
}

/**
 * Drains the push outbox once: takes due pushes batch by batch and posts each to its device's
 * push service. A 404 or 410 removes the device (and its queued pushes); another failure gives
 * the push back (requeue_notification: the one backoff of every channel, then failed). Rows are claimed before
 * sending, so two runs at once never send one push twice. A device whose endpoint is not a push
 * service's (pushEndpointAllowed) is never posted to: it is removed as gone, since no push could
 * ever reach it.
 */
export async function deliverPushes(options: PushDeliveryOptions): Promise<PushDeliveryReport> {
  const { store, vapid, now } = options;
  const send: PushFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const budget = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const log = options.log ?? console;
  const started = Date.now();
  const report: PushDeliveryReport = { sent: 0, retrying: 0, failed: 0, gone: 0 };

  while (Date.now() - started < budget) {
    const batch = await store.dequeue(batchSize, now);
    for (const row of batch) {
      if (!pushEndpointAllowed(row.endpoint, { loopback: options.allowLoopback ?? false })) {
        // Only the host is logged: the rest of an endpoint is the device's credential.
        log.warn(`[push] not posting ${row.kind} ${row.id} to ${endpointHost(row.endpoint)}: not a push service; device removed`);
        await store.removeGone(row.subscription_id);
        report.gone += 1;
        continue;
      }
      let reason: string;
      try {
        const request = pushRequest(row, vapid, now);
        const response = await send(request.url, { ...request, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        if (response.status >= 200 && response.status < 300) {
          report.sent += 1;
          continue;
        }
        if (GONE.has(response.status)) {
          await store.removeGone(row.subscription_id);
          report.gone += 1;
          continue;
        }
        reason = `${response.status}: ${(await response.text().catch(() => '')).slice(0, 500)}`;
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
      const result = await store.requeue(row.id, reason, now);
      if (result?.status === 'failed') {
        report.failed += 1;
        log.error(`[push] gave up on ${row.kind} ${row.id} after ${result.attempts} attempts: ${reason}`);
      } else {
        report.retrying += 1;
        log.warn(`[push] ${row.kind} ${row.id} will be retried at ${result?.next_attempt_at ?? '?'}: ${reason}`);
      }
    }
    if (batch.length < batchSize) break;
  }
  return report;
}

function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'an address that is not a URL';
  }
}
