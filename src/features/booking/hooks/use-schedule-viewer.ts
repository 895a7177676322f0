import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAuth } from '@/lib/auth/auth-context';
import { queryKeys } from '@/lib/query-keys';
import { scheduleClassQueryOptions, type Viewer } from '../api/get-class-schedule';
import { isBooked } from '../lib/class-facts';

/**
 * Who the schedule's facts are for (a guest or this member), whether that is known yet, and a
 * fresh "do they now hold this class?" read (after a waitlist place disappears: promoted or removed).
 */
export function useScheduleViewer() {
  const { loading, session, member, memberLoading } = useAuth();
  const queryClient = useQueryClient();
  const viewer: Viewer = session ? (member?.id ?? 'guest') : 'guest';
  const ready = !loading && !(session && memberLoading);
  const holds = useCallback(
    async (classId: string) => {
      const cls = await queryClient.fetchQuery({ ...scheduleClassQueryOptions(classId, viewer), staleTime: 0 });
      const booked = cls !== null && isBooked(cls);
      // A place that became a booking: every schedule on screen says Booked from now on.
      if (booked) void queryClient.invalidateQueries({ queryKey: queryKeys.classes.all });
      return booked;
    },
    [queryClient, viewer],
  );
  return { viewer, ready, signedIn: Boolean(session), memberId: session ? (member?.id ?? null) : null, member, holds };
}
