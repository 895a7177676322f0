import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { OfflineNote } from '@/components/ui/offline-note';
import { OFFLINE_NOTES } from '@/lib/offline-notes';
import { useOnline } from '@/hooks/use-online';
import type { ScheduleClass } from '../api/get-class-schedule';
import type { WaitlistActions } from '../api/use-waitlist-actions';
import { blockedLabel, isBooked, isHeld, takesChildren } from '../lib/class-facts';
import { isOneToOne } from '../lib/booking-type';
import { BlockedButton } from './blocked-button';
import { BookNowLink } from './book-now-link';
import { WaitlistAction } from './waitlist-action';

type Props = {
  cls: ScheduleClass;
  /** This class's booking request is in flight. */
  pending: boolean;
  /** Some booking request is in flight: one at a time. */
  busy: boolean;
  onBook: () => void;
  /** Offer the waitlist when the class is full (signed-in schedules). */
  waitlist?: WaitlistActions;
  now: Date;
  /** The member has children on their account: a class that takes children asks who is coming first. */
  hasChildren?: boolean;
};

/**
 * "Book Now", or why it cannot be pressed (said in words on the button), or the waitlist when
 * full: all from the server's facts about this class for this member.
 */
export function BookButton({ cls, pending, busy, onBook, waitlist, now, hasChildren = false }: Props) {
  const online = useOnline();
  const noteId = useId();
  if (cls.refusal === 'class_full' && waitlist) return <WaitlistAction cls={cls} actions={waitlist} now={now} />;
  // A parent on a class that takes children: the form asks which children come and whether they
  // do too, and books them all in one step (book_family), never the parent alone without asking.
  // Once their own place is booked, the same form adds the children.
  if (hasChildren && takesChildren(cls) && cls.refusal !== 'class_started' && !isHeld(cls) && cls.spots_left > 0) {
    return <BookNowLink cls={cls} label={isBooked(cls) ? 'Book your children' : 'Book Now'} />;
  }
  const blocked = blockedLabel(cls);
  if (blocked) return <BlockedButton blocked={blocked} />;
  // A One-to-One session is booked on its form, where the member chooses a credit or to pay.
  if (isOneToOne(cls)) return <BookNowLink cls={cls} />;
  // Offline: the request could not arrive; the button says why it waits.
  if (!online) {
    return (
      <div className="w-full space-y-1">
        <Button className="w-full" disabled aria-describedby={noteId}>
          Book Now
        </Button>
        <OfflineNote id={noteId}>{OFFLINE_NOTES.book}</OfflineNote>
      </div>
    );
  }
  return (
    <Button className="w-full" loading={pending} disabled={busy} onClick={onBook}>
      {pending ? 'Booking...' : 'Book Now'}
    </Button>
  );
}
