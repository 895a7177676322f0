import { ClipboardList, XCircle } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { formatClassTime } from '@/lib/studio-time';
import { useErrorToast } from '@/hooks/use-error-toast';
import { placeLabel } from '@/lib/class-place';
import { getBookingsPage, useBookingsPage, useBookingsTotal, type AdminBooking } from '../api/get-bookings';
import { useCancelBooking } from '../api/cancel-booking';
import { EmptyState } from './empty-state';
import { ExportCsvButton } from './export-csv-button';
import { TablePanel } from './table-panel';
import { PageHeading } from './page-heading';
import { SearchBox } from './search-box';
import { ListFooter } from './list-footer';
import { ADMIN_MESSAGES } from '../lib/messages';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { BOOKING_CSV_COLUMNS } from '../lib/export-csv';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { useListSearch } from '../lib/use-list-search';
import { RowDangerButton } from './row-danger-button';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';

const COLUMNS = ['Member', 'Class', 'Class Date & Time', 'Booked At', 'Actions'] as const;

/** Who is in the place: the member, or a child or guest named with the account that holds it. */
function whoIsIn(b: AdminBooking): string {
  const account = b.member.name || b.member.email;
  if (b.kind === 'member') return b.person || b.member.email;
  return placeLabel({ kind: b.kind, name: b.person ?? '', contact_name: account });
}

/** The line under the name: the member's email, or whose child or guest it is, with their email. */
function accountLine(b: AdminBooking): string {
  if (b.kind === 'member') return b.member.email;
  const account = b.member.name || b.member.email;
  return `${b.kind === 'child' ? 'Child of' : 'Guest of'} ${account} · ${b.member.email}`;
}

/** Bookings Management's list (spec section 2): every place, a page at a time, searched on the server, with Cancel and Export CSV. */
export function BookingsList() {
  const { page, setPage, search, setSearch, term, searching } = useListSearch();
  const list = useBookingsPage(page, term);
  // What a searched list is out of ("Showing 5 of 5" alone hid that 41 bookings exist).
  const overall = useBookingsTotal(term !== '');
  const cancelBooking = useCancelBooking();
  useErrorToast(list.isError, ADMIN_MESSAGES.bookingsLoadFailed);

  function cancel(booking: AdminBooking) {
    const who = whoIsIn(booking);
    confirmThenMutate(`Cancel ${who}'s booking for ${booking.class.name}?`, cancelBooking, booking, {
      success: ADMIN_MESSAGES.bookingCancelled,
      failure: ADMIN_MESSAGES.bookingCancelFailed,
    });
  }

  // One page of the bookings matching the search (server side); total counts every match.
  const state = list.isPending ? 'loading' : list.isError ? 'error' : 'ready';
  const shown = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  return (
    <section>
      <PageHeading
        title="Bookings Management"
        action={<ExportCsvButton load={getBookingsPage} search={search} columns={BOOKING_CSV_COLUMNS} noun="bookings" />}
      />
      <div className="mb-4 flex">
        <SearchBox label="Search bookings" placeholder="Search by member name, email, or class..." value={search} onChange={setSearch} />
      </div>
      <TablePanel>
        {state === 'loading' && <Spinner label="Loading bookings" />}
        {state === 'error' && <EmptyState title={ADMIN_MESSAGES.bookingsLoadFailed} body="Refresh the page to try again." />}
        {state === 'ready' && total === 0 && !searching && (
          <EmptyState
            title="No bookings yet"
            body="Bookings will appear here once members start booking classes."
            icon={<ClipboardList aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {state === 'ready' && shown.length === 0 && searching && (
          <EmptyState title="No bookings found" body="Try adjusting your search terms" />
        )}
        {shown.length > 0 && (
          <CardTable columns={COLUMNS}>
            {shown.map((b) => (
              <CardRow key={b.id}>
                <TitleCell>
                  <div className="font-semibold text-slate-900">{b.person || '—'}</div>
                  <div className="text-xs text-slate-500">{accountLine(b)}</div>
                </TitleCell>
                <FactCell label="Class" wide>
                  <div className="font-semibold text-slate-900">{b.class.name}</div>
                  <div className="text-xs text-slate-500">with {b.class.trainer}</div>
                </FactCell>
                <FactCell label="Class Date & Time" nowrap>
                  <div>{formatInLondon(b.class.start_time, DATE_FORMATS.date)}</div>
                  <div className="text-xs text-slate-500">{formatClassTime(b.class.start_time)}</div>
                </FactCell>
                <FactCell label="Booked At" nowrap>
                  <div>{formatInLondon(b.booked_at, DATE_FORMATS.date)}</div>
                  <div className="text-xs text-slate-500">{formatClassTime(b.booked_at)}</div>
                </FactCell>
                <ActionsCell>
                  <RowDangerButton
                    label={`Cancel booking of ${whoIsIn(b)} for ${b.class.name}`}
                    icon={<XCircle aria-hidden="true" className="h-4 w-4" />}
                    onClick={() => cancel(b)}
                  >
                    Cancel
                  </RowDangerButton>
                </ActionsCell>
              </CardRow>
            ))}
          </CardTable>
        )}
        {state === 'ready' && (total > 0 || searching) && (
          <ListFooter
            shown={shown.length}
            total={total}
            overall={term ? overall.data : null}
            noun="bookings"
            page={page}
            onPage={setPage}
          />
        )}
      </TablePanel>
    </section>
  );
}
