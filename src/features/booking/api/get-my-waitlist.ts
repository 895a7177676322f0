import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/** One waitlist the member is on (classes not started), with its class. */
export type MyWaitlistEntry = {
  classId: string;
  position: number;
  waitlistSize: number;
  closesAt: Date;
  isClosed: boolean;
  className: string;
  trainer: string;
  startsAt: Date;
};

/**
 * `my_waitlist()` gives the places (computed by the database, where promotion happens), then one
 * read of those classes for their names and times: two requests whatever the number of lists.
 */
export async function getMyWaitlist(): Promise<MyWaitlistEntry[]> {
  const { data, error } = await (await loadSupabase()).rpc('my_waitlist');
  if (error) throw error;
  const spots = compositeRows<'waitlist_spot'>(data ?? []);
  if (spots.length === 0) return [];
  const { data: classes, error: classError } = await (
    await loadSupabase()
  )
    .from('classes')
    .select('id, name, trainer, start_time')
    .in(
      'id',
      spots.map((s) => s.class_id),
    );
  if (classError) throw classError;
  const byId = new Map(classes.map((c) => [c.id, c]));
  return spots.flatMap((spot) => {
    const cls = byId.get(spot.class_id);
    if (!cls) return [];
    return [
      {
        classId: spot.class_id,
        position: spot.position,
        waitlistSize: spot.waitlist_size,
        closesAt: new Date(spot.closes_at),
        isClosed: spot.is_closed,
        className: cls.name,
        trainer: cls.trainer,
        startsAt: new Date(cls.start_time),
      },
    ];
  });
}

export const myWaitlistQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.waitlist.mine(memberId), queryFn: getMyWaitlist });

export const useMyWaitlist = (memberId: string | null) =>
  useQuery({ ...myWaitlistQueryOptions(memberId ?? ''), enabled: memberId !== null });
