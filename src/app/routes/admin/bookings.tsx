import { BookingsList } from '@/features/admin/components/bookings-list';
import { RefundsOwedPanel } from '@/features/admin/components/refunds-owed-panel';
import { WaitlistsPanel } from '@/features/admin/components/waitlists-panel';

/** /admin/bookings: every booking, the refunds the studio owes, then who waits for which class. */
export function AdminBookingsRoute() {
  return (
    <>
      <BookingsList />
      <RefundsOwedPanel />
      <WaitlistsPanel />
    </>
  );
}
