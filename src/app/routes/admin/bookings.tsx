import { BookingsList } from '@/features/admin/components/bookings-list';
import { WaitlistsPanel } from '@/features/admin/components/waitlists-panel';

/** /admin/bookings: every booking, then who waits for which class. */
export function AdminBookingsRoute() {
  return (
    <>
      <BookingsList />
      <WaitlistsPanel />
    </>
  );
}
