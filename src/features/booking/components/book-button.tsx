import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { OfflineNote } from '@/components/ui/offline-note';
import { OFFLINE_NOTES } from '@/lib/offline-notes';
import { useOnline } from '@/hooks/use-online';
import type { ScheduleClass } from '../api/get-class-schedule';
import type { WaitlistActions } from '../api/use-waitlist-actions';
import { blockedLabel } from '../lib/class-facts';
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
};

/**
 * "Book Now", or why it cannot be pressed (said in words on the button), or the waitlist when
 * full: all from the server's facts about this class for this member.
 */
export function BookButton({ cls, pending, busy, onBook, waitlist, now }: Props) {
  const online = useOnline();
  const noteId = useId();
  if (cls.refusal === 'class_full' && waitlist) return <WaitlistAction cls={cls} actions={waitlist} now={now} />;
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
