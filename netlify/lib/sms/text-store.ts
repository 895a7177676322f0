import type { Db } from '../supabase-server';
import { compositeRows, type CompositeRow } from '../../../src/lib/composite-row';
import { requeueResult, type RequeueResult } from '../email/outbox-store';

/** One text as `dequeue_texts` hands it out (`public.outbox_text`). */
export type OutboxText = CompositeRow<'outbox_text', 'id' | 'kind' | 'to_phone' | 'body' | 'attempts'>;

/** The SMS channel's side of the pipeline (decision 0041): take due texts, record, give back. */
export interface TextStore {
  dequeue(limit: number, now: Date): Promise<OutboxText[]>;
  accepted(id: string, providerId: string): Promise<boolean>;
  requeue(id: string, error: string, now: Date): Promise<RequeueResult>;
}

export function postgrestTextStore(db: Db): TextStore {
  return {
    async dequeue(limit, now) {
      const { data, error } = await db.rpc('dequeue_texts', { p_limit: limit, p_now: now.toISOString() });
      if (error) throw new Error(`dequeue_texts failed: ${error.code} ${error.message}`);
      return compositeRows<'outbox_text', 'id' | 'kind' | 'to_phone' | 'body' | 'attempts'>(data);
    },
    async accepted(id, providerId) {
      const { data, error } = await db.rpc('text_accepted', { p_id: id, p_provider_id: providerId });
      if (error) throw new Error(`text_accepted failed: ${error.code} ${error.message}`);
      return data;
    },
    async requeue(id, message, now) {
      // The one retry of every channel (decision 0040).
      const { data, error } = await db.rpc('requeue_notification', { p_id: id, p_error: message, p_now: now.toISOString() });
      if (error) throw new Error(`requeue_notification failed: ${error.code} ${error.message}`);
      return requeueResult(data);
    },
  };
}
