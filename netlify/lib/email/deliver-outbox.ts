import type { Transporter } from 'nodemailer';
import type { OutboxStore } from './outbox-store';
import { renderEmail } from './render-email';

export type DeliveryOptions = {
  store: OutboxStore;
  transport: Pick<Transporter, 'sendMail'>;
  /** The From header. */
  from: string;
  /** Prefix of the emails' links (the site's address). */
  siteUrl: string;
  /** What is due is decided as of this time (the scheduled run's time, or a test's). */
  now: Date;
  /** Emails taken per dequeue. */
  batchSize?: number;
  /** Stop taking new batches after this many milliseconds (a scheduled run has 30 s). */
  budgetMs?: number;
  log?: Pick<Console, 'error' | 'warn'>;
};

export type DeliveryReport = {
  sent: number;
  retrying: number;
  failed: number;
  ids: { sent: string[]; retrying: string[]; failed: string[] };
};

export const DEFAULT_BATCH = 25;
/** Well inside a Netlify scheduled function's 30-second limit, with one SMTP timeout to spare. */
export const DEFAULT_BUDGET_MS = 12_000;

/** The SMTP reply code (e.g. 550) or Node's error code (ECONNREFUSED) with the message, for the admins' list. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  const prefix = responseCode ?? code;
  return prefix !== undefined && !error.message.includes(String(prefix)) ? `${prefix}: ${error.message}` : error.message;
}

/**
 * Drains the outbox once: takes due emails batch by batch, sends each through SMTP, and gives a
 * failed one back (requeue_notification: backoff, then failed after the last attempt). Rows are
 * claimed in the database before sending, so two runs at once never send one email twice.
 */
export async function deliverOutbox(options: DeliveryOptions): Promise<DeliveryReport> {
  const { store, transport, from, siteUrl, now } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const budget = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const log = options.log ?? console;
  const started = Date.now();
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, ids: { sent: [], retrying: [], failed: [] } };

  while (Date.now() - started < budget) {
    const batch = await store.dequeue(batchSize, now);
    for (const row of batch) {
      try {
        const message = await renderEmail(row, siteUrl);
        await transport.sendMail({ from, ...message });
        report.sent += 1;
        report.ids.sent.push(row.id);
      } catch (error) {
        const reason = errorText(error);
        const result = await store.requeue(row.id, reason, now);
        if (result?.status === 'failed') {
          report.failed += 1;
          report.ids.failed.push(row.id);
          log.error(`[email] gave up on ${row.kind} ${row.id} after ${result.attempts} attempts: ${reason}`);
        } else {
          report.retrying += 1;
          report.ids.retrying.push(row.id);
          log.warn(`[email] ${row.kind} ${row.id} will be retried at ${result?.next_attempt_at ?? '?'}: ${reason}`);
        }
      }
    }
    if (batch.length < batchSize) break;
  }
  return report;
}
