import type { ReactNode } from 'react';
import { WifiOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { READ_OFFLINE_INSTEAD, READABLE_OFFLINE_LABEL } from './offline-messages';

/** The pages a member can read offline, from the copy kept on the phone (decision 0019). */
const READABLE_OFFLINE = [
  { to: paths.dashboard, label: 'Dashboard' },
  { to: paths.myBookings, label: 'My Bookings' },
  { to: paths.mySchedule, label: 'Book a Class' },
] as const;

/**
 * In place of what a page cannot show offline (its reads wait for a connection): says so plainly,
 * and links the pages that read from the saved copy. The offline banner above says since when.
 */
export function OfflineNotice({ message, except }: { message: string; except?: string }) {
  return (
    <div className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="flex items-start gap-2 font-semibold">
        <WifiOff aria-hidden="true" className="mt-1 h-4 w-4 shrink-0" />
        {message}
      </p>
      <p className="mt-1 text-sm">{READ_OFFLINE_INSTEAD}</p>
      <nav aria-label={READABLE_OFFLINE_LABEL}>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {READABLE_OFFLINE.filter((link) => link.to !== except).map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="inline-flex min-h-11 items-center font-semibold text-amber-950 underline">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * A page that cannot be read offline: while offline its content is hidden (kept mounted, so a
 * form being filled in loses nothing and the page's reads resume where they were) and the notice
 * takes its place.
 */
export function OnlineOnly({ online, message, children }: { online: boolean; message: string; children: ReactNode }) {
  return (
    <>
      {!online && <OfflineNotice message={message} />}
      <div hidden={!online}>{children}</div>
    </>
  );
}
