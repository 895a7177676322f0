import { supabase } from '@/lib/supabase';

/** The dashboard lists at most 5 upcoming bookings (spec section 9). */
export const DASHBOARD_UPCOMING_LIMIT = 5;

export type UpcomingBooking = {
  id: string;
  paymentStatus: string;
  className: string;
  trainer: string;
  startsAt: Date;
};

type Row = { id: string; payment_status: string; classes: { name: string; trainer: string; start_time: string } | null };

/**
 * The member's next bookings, soonest first: classes starting now or later (inner join so the
 * filter on the class drops the booking), with the total number upcoming for Quick Stats.
 */
export async function getUpcomingBookings(memberId: string, now: Date): Promise<{ bookings: UpcomingBooking[]; total: number }> {
  const { data, error, count } = await supabase
    .from('bookings')
    .select('id, payment_status, classes!inner(name, trainer, start_time)', { count: 'exact' })
    .eq('member_id', memberId)
    .gte('classes.start_time', now.toISOString())
    .order('classes(start_time)', { ascending: true })
    .limit(DASHBOARD_UPCOMING_LIMIT);
  if (error) throw error;
  const bookings = (data as unknown as Row[]).flatMap((row) =>
    row.classes
      ? [{ id: row.id, paymentStatus: row.payment_status, className: row.classes.name, trainer: row.classes.trainer, startsAt: new Date(row.classes.start_time) }]
      : [],
  );
  return { bookings, total: count ?? bookings.length };
}
