import { NO_FILTERS, useClassSchedule, type ScheduleClass, type Viewer } from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useWaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BlockedButton } from '@/features/booking/components/blocked-button';
import { BookNowLink } from '@/features/booking/components/book-now-link';
import { Timetable } from '@/features/booking/components/timetable';
import { WaitlistAction } from '@/features/booking/components/waitlist-action';
import { blockedLabel } from '@/features/booking/lib/class-facts';

/** /schedule for a signed-in member: cards follow bookings live, and a full class offers its waitlist. */
export function MemberTimetable({ viewer, memberId }: { viewer: Viewer; memberId: string | null }) {
  const schedule = useClassSchedule(NO_FILTERS, viewer);
  const waitlist = useWaitlistActions(viewer);
  useLiveUpdates(memberId, true);

  function action(cls: ScheduleClass, now: Date) {
    if (cls.refusal === 'class_full') return <WaitlistAction cls={cls} actions={waitlist} now={now} />;
    const blocked = blockedLabel(cls);
    if (blocked) return <BlockedButton blocked={blocked} />;
    return <BookNowLink cls={cls} />;
  }
  return <Timetable schedule={schedule} action={action} />;
}
