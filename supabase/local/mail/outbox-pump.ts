import { PostgrestClient } from '@supabase/postgrest-js';
import type { Transporter } from 'nodemailer';
import { deliverOutbox } from '../../../netlify/lib/email/deliver-outbox';
import { postgrestOutboxStore } from '../../../netlify/lib/email/outbox-store';
import type { Db } from '../../../netlify/lib/supabase-server';
import type { Database } from '../../../src/lib/database.types';

/** The NOTIFY channel of the local stack's outbox triggers (gateway.sql; payload: the table's name). */
export const OUTBOX_CHANNEL = 'notification_outbox';

/** Catch-up interval for retries (their backoff starts at a minute) and admin retries. */
export const OUTBOX_POLL_MS = 30_000;

export type OutboxPumpOptions = {
  /** PostgREST's own URL (the gateway's database work goes straight to it), once it is up. */
  postgrestUrl: () => string | null;
  serviceRoleKey: string;
  /** One run of a production sender as of `now` (the emails', the pushes'). */
  deliver: (db: Db, now: Date) => Promise<unknown>;
  /** What it delivers, for the log ('notifications outbox'). */
  what: string;
  pollMs?: number;
};

/** The emails' run: the production SMTP sender, to the given transport (the local mail server). */
export function emailDelivery(transport: Pick<Transporter, 'sendMail'>, from: string, siteUrl: string): OutboxPumpOptions['deliver'] {
  return (db, now) => deliverOutbox({ store: postgrestOutboxStore(db), transport, from, siteUrl, now });
}

/**
 * Runs a production sender (netlify/lib/email/deliver-outbox.ts, netlify/lib/push) inside the
 * local stack: on start, on every outbox NOTIFY (a new email or push) and every OUTBOX_POLL_MS
 * (retries coming due), as of the current time. Wakes during a run queue one more run instead of
 * overlapping.
 */
export class OutboxPump {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: OutboxPumpOptions) {
    this.timer = setInterval(() => this.wake(), options.pollMs ?? OUTBOX_POLL_MS);
    this.timer.unref();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no run is under way (tests, stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.idle();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const url = this.options.postgrestUrl();
      if (!url) return;
      const db = new PostgrestClient<Database>(url, { headers: { Authorization: `Bearer ${this.options.serviceRoleKey}` } });
      try {
        await this.options.deliver(db, new Date());
      } catch (error) {
        // PostgREST unreachable or refusing: the rows stay queued; the next wake tries again.
        if (!this.stopped)
          console.error(`[local stack] could not deliver the ${this.options.what}:`, error instanceof Error ? error.message : error);
      }
    } while (this.again && !this.stopped);
  }
}
