import toast from 'react-hot-toast';
import { ClipboardList, XCircle } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { formatClassTime } from '@/lib/studio-time';
import { getBookingsPage, type AdminBooking } from '../api/get-bookings';
import { cancelBooking } from '../api/cancel-booking';
import { ADMIN_DATE_FORMAT } from '../components/classes-table';
import { EmptyState } from '../components/empty-state';
import { ExportCsvButton } from '../components/export-csv-button';
import { TablePanel } from '../components/table-panel';
import { WaitlistsPanel } from '../components/waitlists-panel';
import { PageHeading } from '../components/page-heading';
import { SearchBox } from '../components/search-box';
import { ListFooter } from '../components/list-footer';
import { usePagedList } from '../hooks/use-paged-list';
import { ADMIN_MESSAGES } from '../messages';
import { BOOKING_CSV_COLUMNS } from '../utils/export-csv';
import { formatInLondon } from '../utils/studio-clock';
import { RowDangerButton } from '../components/row-danger-button';
import { td, th } from '../components/table-styles';

export function BookingsManagementPage() {
  const { state, page, setPage, search, setSearch, searching, removeRow } = usePagedList(getBookingsPage, ADMIN_MESSAGES.bookingsLoadFailed);

  async function cancel(booking: AdminBooking) {
    const who = booking.member.name || booking.member.email;
    if (!window.confirm(`Cancel ${who}'s booking for ${booking.class.name}?`)) return;
    try {
      await cancelBooking(booking.id);
      removeRow((r) => r.id !== booking.id);
      toast.success(ADMIN_MESSAGES.bookingCancelled);
    } catch {
      toast.error(ADMIN_MESSAGES.bookingCancelFailed);
    }
  }

  // One page of the bookings matching the search (server side); total counts every match.
  const shown = state.status === 'ready' ? state.rows : [];
  const total = state.status === 'ready' ? state.total : 0;

  return (
    <section>
      <PageHeading title="Bookings Management" action={<ExportCsvButton load={getBookingsPage} search={search} columns={BOOKING_CSV_COLUMNS} noun="bookings" />} />
      <div className="mb-4 flex">
        <SearchBox label="Search bookings" placeholder="Search by member name, email, or class..." value={search} onChange={setSearch} />
      </div>
      <TablePanel>
        {state.status === 'loading' && <Spinner label="Loading bookings" />}
        {state.status === 'error' && <EmptyState title={ADMIN_MESSAGES.bookingsLoadFailed} body="Refresh the page to try again." />}
        {state.status === 'ready' && total === 0 && !searching && (
          <EmptyState
            title="No bookings yet"
            body="Bookings will appear here once members start booking classes."
            icon={<ClipboardList aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {state.status === 'ready' && shown.length === 0 && searching && <EmptyState title="No bookings found" body="Try adjusting your search terms" />}
        {shown.length > 0 && (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>Member</th>
                  <th scope="col" className={th}>Class</th>
                  <th scope="col" className={th}>Class Date &amp; Time</th>
                  <th scope="col" className={th}>Booked At</th>
                  <th scope="col" className={th}>Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 bg-white">
                {shown.map((b) => (
                  <tr key={b.id}>
                    <td className={td}>
                      <div className="font-semibold text-slate-900">{b.member.name || '—'}</div>
                      <div className="text-xs text-slate-500">{b.member.email}</div>
                    </td>
                    <td className={td}>
                      <div className="font-semibold text-slate-900">{b.class.name}</div>
                      <div className="text-xs text-slate-500">with {b.class.trainer}</div>
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      <div>{formatInLondon(b.class.start_time, ADMIN_DATE_FORMAT)}</div>
                      <div className="text-xs text-slate-500">{formatClassTime(b.class.start_time)}</div>
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      <div>{formatInLondon(b.booked_at, ADMIN_DATE_FORMAT)}</div>
                      <div className="text-xs text-slate-500">{formatClassTime(b.booked_at)}</div>
                    </td>
                    <td className={td}>
                      <RowDangerButton
                        label={`Cancel booking of ${b.member.name || b.member.email} for ${b.class.name}`}
                        icon={<XCircle aria-hidden="true" className="h-4 w-4" />}
                        onClick={() => void cancel(b)}
                      >
                        Cancel
                      </RowDangerButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {state.status === 'ready' && (total > 0 || searching) && <ListFooter shown={shown.length} total={total} noun="bookings" page={page} onPage={setPage} />}
      </TablePanel>
      <WaitlistsPanel />
    </section>
  );
}
