import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { CalendarPlus, CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { BookingType } from '@/config/booking-types';
import { BOOKING_MESSAGES } from '../api/booking-messages';
import { useBookClass } from '../api/use-book-class';
import { formatTimeUntil, isLocked, unlockTime } from '@/lib/rules/lock-window';
import type { ClassRow, Member } from '@/lib/supabase';
import { downloadBookingIcs } from '../lib/booking-ics';
import { BOOKING_TYPE_OPTIONS, defaultBookingType } from './booking-type';

/** How long the confirmation (with its Add to calendar offer) shows before going to My Bookings. */
export const REDIRECT_DELAY_MS = 4000;

type Props = { cls: ClassRow; email: string; member: Member | null; now: Date; onBooked: (spotsLeft: number | null) => void };

/** Email (the signed-in account's) and booking type; the server decides and the form says what it decided. */
export function BookClassForm({ cls, email, member, now, onBooked }: Props) {
  const navigate = useNavigate();
  const [type, setType] = useState<BookingType>(() => defaultBookingType(member));
  const [done, setDone] = useState(false);
  const [bookingId, setBookingId] = useState<string | null>(null);
  const { book, isBooking } = useBookClass({ failureMessage: BOOKING_MESSAGES.formFailed });
  const locked = isLocked(cls, { tier: member?.membership_tier ?? null }, now);
  const opensAt = unlockTime(cls);
  const full = cls.spots_left <= 0;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBooking || done) return;
    const outcome = await book(cls.id, type);
    if (!outcome?.ok || outcome.result.status !== 'booked') return;
    setDone(true);
    setBookingId(outcome.result.booking_id);
    onBooked(outcome.result.spots_left);
    toast.success(BOOKING_MESSAGES.formConfirmed);
    window.setTimeout(() => void navigate('/mybookings'), REDIRECT_DELAY_MS);
  }

  let label = 'Confirm Booking';
  if (isBooking) label = 'Booking...';
  else if (done) label = 'Booked';
  else if (locked) label = 'Locked';
  else if (full) label = 'Fully Booked';

  return (
    <form aria-label="Book this class" onSubmit={handleSubmit} className="space-y-5">
      <TextField label="Email" type="email" name="email" value={email} readOnly hint="Bookings are made for the account you are signed in with." />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Booking Type</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {BOOKING_TYPE_OPTIONS.map((option) => (
            <label
              key={option.value}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
            >
              <input type="radio" name="bookingType" value={option.value} checked={type === option.value} onChange={() => setType(option.value)} className="accent-brand-600" />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {locked && opensAt && (
        <p className="rounded-lg bg-blue-50 p-3 text-sm text-blue-900">This premium class opens for booking in {formatTimeUntil(opensAt, now)}.</p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={isBooking} disabled={isBooking || done || locked || full}>
        {label}
      </Button>
      {bookingId && (
        <div role="status" className="flex flex-col gap-3 rounded-lg border border-green-200 bg-green-50 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm font-medium text-green-900">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0" />
            You're booked. Put it in your calendar?
          </p>
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              downloadBookingIcs({ id: bookingId, className: cls.name, trainer: cls.trainer, startsAt: new Date(cls.start_time), duration: cls.duration, description: cls.description })
            }
          >
            <CalendarPlus aria-hidden="true" className="h-4 w-4" />
            Add to calendar
          </Button>
        </div>
      )}
    </form>
  );
}
