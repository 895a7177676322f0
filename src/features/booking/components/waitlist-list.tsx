import { Hourglass } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatClassDateTime } from '@/lib/studio-time';
import type { MyWaitlistEntry } from '../api/get-my-waitlist';
import { MY_BOOKINGS_MESSAGES, waitlistPosition } from '../lib/my-bookings-messages';

type Props = { entries: MyWaitlistEntry[]; onLeave: (entry: MyWaitlistEntry) => void; leavingId: string | null };

/** The classes the member waits for, with their place in line; a freed spot books them automatically. */
export function WaitlistList({ entries, onLeave, leavingId }: Props) {
  return (
    <section aria-labelledby="waitlist-heading">
      <h2 id="waitlist-heading" className="flex items-center gap-2 text-xl font-semibold text-slate-900">
        <Hourglass aria-hidden="true" className="h-5 w-5 text-slate-500" />
        {MY_BOOKINGS_MESSAGES.waitlistHeading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">If a spot opens you are booked automatically and we email you.</p>
      <ul className="mt-3 space-y-3">
        {entries.map((e) => {
          const when = formatClassDateTime(e.startsAt);
          return (
            <li
              key={e.classId}
              className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                  {e.className}
                  <Badge tone="info">{waitlistPosition(e.position, e.waitlistSize)}</Badge>
                  {e.isClosed && <Badge tone="neutral">Waitlist closed</Badge>}
                </p>
                <p className="text-sm text-slate-600">
                  {when}
                  {e.trainer && ` · ${e.trainer}`}
                </p>
                {!e.isClosed && <p className="mt-1 text-xs text-slate-500">Waitlist closes {formatClassDateTime(e.closesAt)}</p>}
              </div>
              <Button
                variant="outline"
                size="sm"
                loading={leavingId === e.classId}
                disabled={Boolean(leavingId)}
                onClick={() => onLeave(e)}
                aria-label={`${MY_BOOKINGS_MESSAGES.leaveWaitlist}: ${e.className} on ${when}`}
              >
                {MY_BOOKINGS_MESSAGES.leaveWaitlist}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
