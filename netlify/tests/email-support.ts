import { asServiceRole } from '../../supabase/local/db/as-user.ts';
import type { SqlDatabase } from '../../supabase/local/db/open-database.ts';
import type { OutboxEmail, OutboxStore, RequeueResult } from '../lib/email/outbox-store.ts';

/**
 * The outbox contract on a test database, as PostgREST runs it for the service role: the same
 * SQL functions the scheduled function calls, one transaction per call.
 */
export function sqlOutboxStore(db: SqlDatabase): OutboxStore {
  return {
    dequeue: (limit, now) =>
      asServiceRole(
        db,
        async (tx) => (await tx.query<OutboxEmail>('select * from public.dequeue_notifications($1, $2)', [limit, now.toISOString()])).rows,
      ),
    requeue: (id, error, now) =>
      asServiceRole(
        db,
        async (tx) =>
          (
            await tx.query<NonNullable<RequeueResult>>('select * from public.requeue_notification($1, $2, $3)', [
              id,
              error,
              now.toISOString(),
            ])
          ).rows[0] ?? null,
      ),
  };
}
