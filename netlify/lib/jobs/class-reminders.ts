import type { Db } from '../supabase-server';

/** Remind members of classes starting within this many hours (one reminder per booking). */
export const REMINDER_WINDOW_HOURS = 24;

/**
 * Queues reminder emails in the notifications outbox for confirmed bookings of classes starting
 * within `hours` after `now` that were not reminded yet. Idempotent (one reminder per booking,
 * kept by the database). Returns how many were queued. Run hourly by the scheduled jobs and by
 * scripts/send-reminders.ts.
 */
export async function enqueueClassReminders(db: Db, now: Date, hours: number = REMINDER_WINDOW_HOURS): Promise<number> {
  const { data, error } = await db.rpc('enqueue_class_reminders_at', { p_now: now.toISOString(), p_within_hours: hours });
  if (error) throw new Error(`enqueue_class_reminders_at failed: ${error.code} ${error.message}`);
  return data;
}
