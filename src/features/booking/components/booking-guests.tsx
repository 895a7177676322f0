import { useState } from 'react';
import { UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { BookingRefused } from '../api/book-class';
import type { MyGuest } from '../api/get-my-guests';
import { useRemoveGuest } from '../api/guest-mutations';
import { AddGuestDialog } from './add-guest-dialog';

type Props = {
  bookingId: string;
  /** "Breakfast Club on Mon, Mar 4 at 6:00 AM", for the dialog and the buttons' names. */
  classLabel: string;
  guests: MyGuest[];
  /** The member holds a guest pass (Platinum Premium's, or granted): offer Add a guest. */
  canAddGuest: boolean;
};

/**
 * A booking's guests on My Bookings (issue 26): each named with Remove, and Add a guest while the
 * member holds a guest pass. Removing in time gives the pass back (the database decides).
 */
export function BookingGuests({ bookingId, classLabel, guests, canAddGuest }: Props) {
  const [adding, setAdding] = useState(false);
  const remove = useRemoveGuest();
  if (guests.length === 0 && !canAddGuest) return null;

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
        <Button size="sm" variant="outline" onClick={() => setAdding(true)} aria-label={`Add a guest to ${classLabel}`}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Add a guest
        </Button>
      )}
      {adding && <AddGuestDialog bookingId={bookingId} classLabel={classLabel} onClose={() => setAdding(false)} />}
    </div>
  );
}
