import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

export type LeaveWaitlistOutcome = { ok: true } | { ok: false; error: PostgrestError };

/** Leaves a class's waitlist through `leave_waitlist` (one request; the database reorders the rest). */
export async function leaveWaitlist(classId: string): Promise<LeaveWaitlistOutcome> {
  const { error } = await supabase.rpc('leave_waitlist', { p_class_id: classId });
  return error ? { ok: false, error } : { ok: true };
}
