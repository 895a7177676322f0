import type { Database } from '../../../src/lib/database.types';
import type { Db } from '../supabase-server';
import { checkedText } from '../../../src/lib/checked-text';
import { compositeRow, compositeRows, type CompositeRow } from '../../../src/lib/composite-row';

/** The fields of an `outbox_email` always set. */
type OutboxEmailSetFields = 'id' | 'kind' | 'to_email' | 'subject' | 'body_text' | 'attempts';

/** One email as `dequeue_notifications` hands it out (`public.outbox_email`), the fields a sender uses. */
export type OutboxEmail = Pick<
  CompositeRow<'outbox_email', OutboxEmailSetFields>,
  | 'id'
  | 'kind'
  | 'to_email'
  | 'reply_to'
  | 'subject'
  | 'body_text'
  | 'links'
  | 'attempts'
  | 'class_name'
  | 'class_trainer'
  | 'class_when'
  | 'unsubscribe_token'
> &
  // Where the class meets (decision 0055); absent on rows made before meeting points (the hall).
  Partial<Pick<CompositeRow<'outbox_email', OutboxEmailSetFields>, 'class_where' | 'class_directions' | 'class_map_url'>>;

type RequeueSetFields = 'id' | 'attempts' | 'status';
type RequeueStatus = 'retrying' | 'failed';

/**
 * A failed delivery given back (`public.outbox_requeue`): 'retrying' until the last attempt, then
 * 'failed'; null when the email was not out for delivery (nothing changed).
 */
export type RequeueResult = (Omit<CompositeRow<'outbox_requeue', RequeueSetFields>, 'status'> & { status: RequeueStatus }) | null;

/**
 * The outbox contract (decision 0008): take due emails (each handed to one sender only), give a
 * failed one back. `now` decides what is due and when a retry is.
 */
export interface OutboxStore {
  dequeue(limit: number, now: Date): Promise<OutboxEmail[]>;
  requeue(id: string, error: string, now: Date): Promise<RequeueResult>;
}

/** What requeue_notification answered (every channel): zero rows (not out for delivery) or how the row was given back. */
export function requeueResult(data: Database['public']['CompositeTypes']['outbox_requeue'][]): RequeueResult {
  const given = data[0];
  if (!given) return null;
  const row = compositeRow<'outbox_requeue', RequeueSetFields>(given);
  return { ...row, status: checkedText<RequeueStatus>(row.status) };
}

/** The outbox through PostgREST as the service role (the scheduled function, the local stack). */
export function postgrestOutboxStore(db: Db): OutboxStore {
  return {
    async dequeue(limit, now) {
      const { data, error } = await db.rpc('dequeue_notifications', { p_limit: limit, p_now: now.toISOString() });
      if (error) throw new Error(`dequeue_notifications failed: ${error.code} ${error.message}`);
      return compositeRows<'outbox_email', OutboxEmailSetFields>(data);
    },
    async requeue(id, message, now) {
      const { data, error } = await db.rpc('requeue_notification', { p_id: id, p_error: message, p_now: now.toISOString() });
      if (error) throw new Error(`requeue_notification failed: ${error.code} ${error.message}`);
      return requeueResult(data);
    },
  };
}
