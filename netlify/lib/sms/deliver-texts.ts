import type { SmsProvider } from './sms-provider';
import type { TextStore } from './text-store';

export type TextDeliveryOptions = {
  store: TextStore;
  provider: SmsProvider;
  /** What is due (quiet hours, expiry) is decided as of this time. */
  now: Date;
  /** Where the provider reports each text's delivery (the sms-webhook function); none: no reports. */
  statusCallback?: string;
  batchSize?: number;
  log?: Pick<Console, 'error'>;
};

export type TextDeliveryReport = { sent: number; retrying: number; failed: number };

const DEFAULT_BATCH = 25;
/** A run stops after this many batches; the next minute's run takes the rest. */
const MAX_BATCHES = 8;

/**
 * Sends the texts due as of `now`, batch by batch: each is claimed (marked sent) before it is
 * posted, so two runs never send one twice; the provider's id is recorded for its status reports.
 * A failure gives the text back (requeue_notification: the one backoff, then failed, with the
 * provider's reason for the admins' list). Numbers are checked when saved (E.164, a mobile).
 */
export async function deliverTexts(options: TextDeliveryOptions): Promise<TextDeliveryReport> {
  const { store, provider, now } = options;
  const log = options.log ?? console;
  const report: TextDeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const texts = await store.dequeue(options.batchSize ?? DEFAULT_BATCH, now);
    if (texts.length === 0) break;
    for (const text of texts) {
      try {
        const { id } = await provider.send({ to: text.to_phone, body: text.body, statusCallback: options.statusCallback });
        await store.accepted(text.id, id);
        report.sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const given = await store.requeue(text.id, message, now);
        if (given?.status === 'failed') report.failed += 1;
        else report.retrying += 1;
        log.error(`[texts] ${text.kind} to ${text.to_phone.slice(0, -4)}…: ${message}`);
      }
    }
  }
  return report;
}
