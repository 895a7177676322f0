/**
 * Delivers the database's notifications outbox into the dev inbox (decision 0005): the booking
 * RPCs write emails into `notification_outbox` in the same transaction as the change, and this
 * sender takes them with `dequeue_notifications` (as service_role, through PostgREST like all of
 * the gateway's database work) and "sends" them. It drains on start and whenever the outbox's
 * NOTIFY arrives; a failed email is given back with `requeue_notification` and retried later.
 */
import { escapeHtml, type Inbox } from './inbox';

/** The NOTIFY channel the outbox's insert trigger uses (payload: the row id). */
export const OUTBOX_CHANNEL = 'notification_outbox';

/** Rows taken per dequeue call; a full batch means another call follows at once. */
export const OUTBOX_BATCH = 50;

/** Wait before trying again after a failed dequeue or a requeued email. */
export const OUTBOX_RETRY_MS = 2000;

/** Deliveries of one email before the sender gives up on it (it stays marked sent, with a log line). */
export const OUTBOX_MAX_ATTEMPTS = 5;

/** A dequeued `public.notification_outbox` row (the columns the sender reads). */
export interface OutboxRow {
  id: string;
  attempts: number;
  to_email: string;
  subject: string;
  body_text: string;
  links: unknown;
}

export interface OutboxLink {
  label: string;
  path: string;
}

function asLinks(value: unknown): OutboxLink[] {
  if (!Array.isArray(value)) throw new Error('links is not an array');
  return value.map((l: unknown) => {
    const { label, path } = (l ?? {}) as Partial<OutboxLink>;
    if (typeof label !== 'string' || typeof path !== 'string' || !path.startsWith('/')) {
      throw new Error(`malformed link ${JSON.stringify(l)}`);
    }
    return { label, path };
  });
}

/** The email as HTML: the plain-text body escaped with line breaks kept, then one link per entry. */
export function renderOutboxEmail(row: Pick<OutboxRow, 'body_text' | 'links'>, siteUrl: string): string {
  const site = siteUrl.replace(/\/$/, '');
  const body = escapeHtml(row.body_text).replace(/\r?\n/g, '<br>\n');
  const links = asLinks(row.links)
    .map((l) => `<p><a href="${escapeHtml(`${site}${l.path}`)}">${escapeHtml(l.label)}</a></p>`)
    .join('\n');
  return `<p>${body}</p>${links ? `\n${links}` : ''}`;
}

export interface OutboxSenderOptions {
  /** Calls a `public` RPC as service_role (through PostgREST). */
  rpc: <T>(fn: string, args: Record<string, unknown>) => Promise<T>;
  inbox: Pick<Inbox, 'send'>;
  siteUrl: string;
  retryMs?: number;
}

export class OutboxSender {
  private running: Promise<void> | null = null;
  private again = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: OutboxSenderOptions) {}

  /** Asks for a drain; drains already under way run once more afterwards instead of overlapping. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drainLoop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no drain is running (tests, stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.idle();
  }

  private async drainLoop(): Promise<void> {
    do {
      this.again = false;
      let failed = false;
      try {
        failed = await this.drain();
      } catch (error) {
        // PostgREST unreachable or refusing: the rows stay unsent in the database.
        if (!this.stopped) console.error('[local stack] could not read the notifications outbox:', errorText(error));
        failed = true;
      }
      if (failed) this.scheduleRetry();
    } while (this.again && !this.stopped);
  }

  /** Dequeues and sends until the outbox is empty; returns whether any email failed. */
  private async drain(): Promise<boolean> {
    let failed = false;
    for (;;) {
      if (this.stopped) return failed;
      const rows = await this.options.rpc<OutboxRow[]>('dequeue_notifications', { p_limit: OUTBOX_BATCH });
      for (const row of rows) {
        try {
          this.options.inbox.send(row.to_email, row.subject, renderOutboxEmail(row, this.options.siteUrl));
        } catch (error) {
          if (row.attempts >= OUTBOX_MAX_ATTEMPTS) {
            console.error(`[local stack] giving up on email ${row.id} after ${row.attempts} attempts:`, errorText(error));
            continue;
          }
          failed = true;
          await this.options.rpc('requeue_notification', { p_id: row.id, p_error: errorText(error) });
        }
      }
      if (rows.length < OUTBOX_BATCH) return failed;
    }
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.wake();
    }, this.options.retryMs ?? OUTBOX_RETRY_MS);
    this.retryTimer.unref();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
