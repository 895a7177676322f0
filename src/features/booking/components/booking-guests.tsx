import { lazy, Suspense, useState } from 'react';
import { UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { BookingRefused } from '../api/book-class';
import type { GuestOption } from '../api/get-guest-options';
import type { MyGuest } from '../api/get-my-guests';
import { useRemoveGuest } from '../api/remove-guest';

// The form loads when it is wanted (pointer on, focus on or press of Add a guest), not with My Bookings.
const loadAddGuestDialog = () => import('./add-guest-dialog');
const AddGuestDialog = lazy(() => loadAddGuestDialog().then((m) => ({ default: m.AddGuestDialog })));
const preloadAddGuestDialog = () => void loadAddGuestDialog().catch(() => undefined);

/** Said where Add a guest would be when the class has no place left (add_guest's class_full, known before). */
export const NO_ROOM_FOR_GUEST = 'This class is fully booked: there is no place left for a guest.';

type Props = {
  bookingId: string;
  /** "Breakfast Club on Mon 4 Mar at 6:00 AM", for the dialog and the buttons' names. */
  classLabel: string;
  guests: MyGuest[];
  /** How a guest could come (a pass valid that day, the class's price): offer Add a guest, or say the class is full. */
  guestOption: GuestOption | undefined;
};

/**
 * A booking's guests on My Bookings: each named with Remove (a place still being paid
 * for says so), and Add a guest while the member holds a guest pass for that day or the class has
 * a pay-as-you-go price, and the class has a place left; a full class says so instead of opening a
 * form the database would refuse. Removing in time gives the pass or the payment back (the database decides).
 */
export function BookingGuests({ bookingId, classLabel, guests, guestOption }: Props) {
  const canBringGuest = guestOption !== undefined;
  const canAddGuest = canBringGuest && guestOption.hasRoom;
  const [adding, setAdding] = useState(false);
  const remove = useRemoveGuest();
  if (guests.length === 0 && !canBringGuest) return null;

  async function removeGuest(guest: MyGuest) {
    if (!window.confirm(`Remove ${guest.guest_name} from ${classLabel}? We will email them that their place is cancelled.`)) return;
    try {
      await remove.mutateAsync(guest.id);
      toast.success(`${guest.guest_name} is no longer booked as your guest`);
    } catch (error) {
      toast.error(error instanceof BookingRefused ? error.error.message : 'Could not remove your guest, please try again.');
    }
  }

  return (
    <div className="mt-2 space-y-2">
      {guests.length > 0 && (
        <ul className="space-y-1 text-sm text-slate-700" aria-label={`Guests on ${classLabel}`}>
          {guests.map((g) => (
            <li key={g.id} className="flex flex-wrap items-center gap-2">
              <span className="break-all">
                Guest: <span className="font-medium">{g.guest_name}</span> ({g.guest_email})
                {g.payment_status === 'pending' && <span className="text-amber-800"> · payment pending</span>}
              </span>
              <Button
                size="sm"
                variant="ghost"
                loading={remove.isPending && remove.variables === g.id}
                onClick={() => void removeGuest(g)}
                aria-label={`Remove guest ${g.guest_name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {canAddGuest && (
        <Button
          size="sm"
          variant="outline"
          onPointerEnter={preloadAddGuestDialog}
          onFocus={preloadAddGuestDialog}
          onClick={() => setAdding(true)}
          aria-label={`Add a guest to ${classLabel}`}
        >
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Add a guest
        </Button>
      )}
      {canBringGuest && !canAddGuest && <p className="text-sm text-slate-600">{NO_ROOM_FOR_GUEST}</p>}
      {/* An open form stays open if the class fills meanwhile: it shows add_guest's refusal. */}
      {adding && guestOption && (
        <Suspense fallback={null}>
          <AddGuestDialog bookingId={bookingId} classLabel={classLabel} option={guestOption} onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </div>
  );
}
