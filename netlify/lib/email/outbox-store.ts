import type { PostgrestClient } from '@supabase/postgrest-js';

/** One email as `dequeue_notifications` hands it out (`public.outbox_email`). */
export type OutboxEmail = {
  id: string;
  kind: string;
  to_email: string;
  reply_to: string | null;
  subject: string;
  body_text: string;
  links: unknown;
  attempts: number;
  class_name: string | null;
  class_trainer: string | null;
  /** 'Monday 6 October 2025, 6:00 AM', London wall-clock time. */
  class_when: string | null;
  unsubscribe_token: string | null;
};

export type RequeueResult = { status: 'retrying' | 'failed'; attempts: number; next_attempt_at: string | null } | null;

/**
 * The outbox contract (decision 0008): take due emails (each handed to one sender only), give a
 * failed one back. `now` decides what is due and when a retry is.
 */
export interface OutboxStore {
  dequeue(limit: number, now: Date): Promise<OutboxEmail[]>;
  requeue(id: string, error: string, now: Date): Promise<RequeueResult>;
}

/** The outbox through PostgREST as the service role (the scheduled function, the local stack). */
export function postgrestOutboxStore(db: PostgrestClient): OutboxStore {
  return {
    async dequeue(limit, now) {
      const { data, error } = await db.rpc('dequeue_notifications', { p_limit: limit, p_now: now.toISOString() });
      if (error) throw new Error(`dequeue_notifications failed: ${error.code} ${error.message}`);
      return data as OutboxEmail[];
    },
    async requeue(id, message, now) {
      const { data, error } = await db.rpc('requeue_notification', { p_id: id, p_error: message, p_now: now.toISOString() });
      if (error) throw new Error(`requeue_notification failed: ${error.code} ${error.message}`);
      return data as RequeueResult;
    },
  };
}
