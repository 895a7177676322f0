import type { Db } from '../supabase-server';
import { compositeRows, type CompositeRow } from '../../../src/lib/composite-row';
import { requeueResult, type RequeueResult } from '../email/outbox-store';

/** The fields of an `outbox_push` always set (expires_at may be null). */
type OutboxPushSetFields =
  'id' | 'kind' | 'subscription_id' | 'endpoint' | 'p256dh' | 'auth' | 'title' | 'body' | 'path' | 'tag' | 'attempts';

/** One push as `dequeue_pushes` hands it out (`public.outbox_push`): the message and its device. */
export type OutboxPush = CompositeRow<'outbox_push', OutboxPushSetFields>;

/**
 * The push outbox contract (decision 0023), as the email outbox's: take due pushes (each handed
 * to one sender only), give a failed one back, and forget a device the push service says is gone.
 */
export interface PushStore {
  dequeue(limit: number, now: Date): Promise<OutboxPush[]>;
  requeue(id: string, error: string, now: Date): Promise<RequeueResult>;
  removeGone(subscriptionId: string): Promise<boolean>;
}

/** The push outbox through PostgREST as the service role (the scheduled function, the local stack). */
export function postgrestPushStore(db: Db): PushStore {
  return {
    async dequeue(limit, now) {
      const { data, error } = await db.rpc('dequeue_pushes', { p_limit: limit, p_now: now.toISOString() });
      if (error) throw new Error(`dequeue_pushes failed: ${error.code} ${error.message}`);
      return compositeRows<'outbox_push', OutboxPushSetFields>(data);
    },
    async requeue(id, message, now) {
      // The one retry of every channel (decision 0040).
      const { data, error } = await db.rpc('requeue_notification', { p_id: id, p_error: message, p_now: now.toISOString() });
      if (error) throw new Error(`requeue_notification failed: ${error.code} ${error.message}`);
      return requeueResult(data);
    },
    async removeGone(subscriptionId) {
      const { data, error } = await db.rpc('remove_gone_push_subscription', { p_subscription_id: subscriptionId });
      if (error) throw new Error(`remove_gone_push_subscription failed: ${error.code} ${error.message}`);
      return data;
    },
  };
}
