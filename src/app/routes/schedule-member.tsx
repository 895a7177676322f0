import type { ReactNode } from 'react';
import type { ScheduleClass, Viewer } from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useWaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BlockedButton } from '@/features/booking/components/blocked-button';
import { BookNowLink } from '@/features/booking/components/book-now-link';
import type { ScheduleDay } from '@/features/booking/components/schedule-days';
import { Timetable } from '@/features/booking/components/timetable';
import { useDaySchedule } from '@/features/booking/components/use-day-schedule';
import { WaitlistAction } from '@/features/booking/components/waitlist-action';
import { blockedLabel } from '@/features/booking/lib/class-facts';

type Props = { viewer: Viewer; memberId: string | null; day: ScheduleDay | null; empty?: ReactNode };

/** /schedule for a signed-in member: cards follow bookings live, and a full class offers its waitlist. */
export function MemberTimetable({ viewer, memberId, day, empty }: Props) {
  const schedule = useDaySchedule(day, viewer);
  const waitlist = useWaitlistActions(viewer);
  useLiveUpdates(memberId, true);

  function action(cls: ScheduleClass, now: Date) {
    if (cls.refusal === 'class_full') return <WaitlistAction cls={cls} actions={waitlist} now={now} />;
    const blocked = blockedLabel(cls);
    if (blocked) return <BlockedButton blocked={blocked} />;
    return <BookNowLink cls={cls} />;
  }
  return <Timetable schedule={schedule} action={action} empty={empty} />;
}
