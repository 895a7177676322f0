import type { PostgrestClient } from '@supabase/postgrest-js';
import { json } from '../lib/http';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** Netlify runs this function every hour (a scheduled function: not callable by URL in production). */
export const config = { schedule: '@hourly' };

/** Remind members of classes starting within this many hours (one reminder per booking). */
export const REMINDER_WINDOW_HOURS = 24;

/**
 * Queues reminder emails in the notifications outbox for confirmed bookings of classes starting in
 * the next `hours` hours that were not reminded yet. Idempotent (one reminder per booking, kept by
 * the database). Returns how many were queued. Shared by this function and scripts/send-reminders.ts.
 */
export async function enqueueReminders(db: PostgrestClient, hours: number = REMINDER_WINDOW_HOURS): Promise<number> {
  const { data, error } = await db.rpc('enqueue_class_reminders', { p_within_hours: hours });
  if (error) throw new Error(`enqueue_class_reminders failed: ${error.code} ${error.message}`);
  return data as number;
}

export default async function sendReminders(): Promise<Response> {
  try {
    const queued = await enqueueReminders(serviceDb(readServerEnv()));
    console.log(`[send-reminders] queued ${queued} reminder(s) for the next ${REMINDER_WINDOW_HOURS} hours`);
    return json({ queued, windowHours: REMINDER_WINDOW_HOURS });
  } catch (error) {
    console.error('[send-reminders] failed', error);
    const status = error instanceof ConfigError ? 503 : 500;
    return json({ error: 'reminders_failed', message: 'Could not queue the class reminders.' }, status);
  }
}
