import { BookingsList } from '@/features/admin/components/bookings-list';
import { ChargebacksPanel } from '@/features/admin/components/chargebacks-panel';
import { RefundsOwedPanel } from '@/features/admin/components/refunds-owed-panel';
import { WaitlistsPanel } from '@/features/admin/components/waitlists-panel';

/** /admin/bookings: every booking, the refunds the studio owes, what members owe it, then who waits for which class. */
export function AdminBookingsRoute() {
  return (
    <>
      <BookingsList />
      <RefundsOwedPanel />
      <ChargebacksPanel />
      <WaitlistsPanel />
    </>
  );
}
