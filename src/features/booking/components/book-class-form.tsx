import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { CalendarPlus, CheckCircle2 } from 'lucide-react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { TextField } from '@/components/ui/field';
import { AttendancePolicyNote } from '@/components/attendance/attendance-policy-note';
import { BOOKING_TYPES } from '@/config/booking-types';
import { paths } from '@/config/paths';
import { formatTimeLeft } from '@/lib/rules/countdown';
import { useBookClass, BOOKING_OUTCOME_TOAST } from '../api/book-class';
import type { CreditChoice } from '../api/get-credit-for-class';
import type { ScheduleClass } from '../api/get-class-schedule';
import type { PlanUsage } from '../api/get-plan-usage';
import { BOOKING_MESSAGES, bookedMessage } from '../lib/booking-messages';
import { downloadBookingIcs } from '../lib/booking-ics';
import { blockedLabel, lockOf } from '../lib/class-facts';
import { bookingTypeNote, bookingTypeOptions, isOneToOne, takesClassCredit } from '../lib/booking-type';
import { cancelWindowText } from '../lib/late-cancel';

/** How long the confirmation (with its Add to calendar offer) shows before going to My Bookings. */
export const REDIRECT_DELAY_MS = 4000;

/** The form's one choice: the request's booking type, which the form requires. */
const bookingFormSchema = z.object({ bookingType: z.enum(BOOKING_TYPES) });
type BookingForm = z.infer<typeof bookingFormSchema>;

/** `credit`: what a One-to-One session or a paid group class would use (loaded before the form shows). */
type Props = { cls: ScheduleClass; email: string; usage: PlanUsage | undefined; now: Date; credit?: CreditChoice };

/**
 * The type the form starts on: the server's choice, or the member's credit when there is one for a
 * One-to-One, or for a group class the server would send to the card checkout.
 */
function initialType(cls: ScheduleClass, credit: CreditChoice | undefined): BookingForm['bookingType'] {
  if (isOneToOne(cls)) return credit?.credit_id ? 'credit' : 'payg';
  if (credit?.credit_id && takesClassCredit(cls) && cls.needs_payment) return 'credit';
  return cls.booking_type ?? 'payg';
}

/**
 * Email (the signed-in account's) and booking type. Only the types the server would accept are
 * offered, each other one with its reason; what the chosen type costs is said before confirming.
 */
export function BookClassForm({ cls, email, usage, now, credit }: Props) {
  const navigate = useNavigate();
  const options = bookingTypeOptions(cls, usage, credit);
  const { register, handleSubmit, control } = useForm<BookingForm>({
    resolver: zodResolver(bookingFormSchema),
    defaultValues: { bookingType: initialType(cls, credit) },
  });
  const [booked, setBooked] = useState<{ id: string; message: string } | null>(null);
  const bookingId = booked?.id ?? null;
  const { book, isBooking } = useBookClass({ failureMessage: BOOKING_MESSAGES.formFailed, announce: false });
  const type = useWatch({ control, name: 'bookingType' });
  const chosen = options.find((o) => o.value === type);
  const blocked = bookingId ? 'Booked' : (blockedLabel(cls)?.label ?? null);
  const lock = lockOf(cls);
  const note = bookingTypeNote(cls, type, usage, credit);

  // One booking per form: a second submit (a double click) finds the first one done or under way.
  const submitted = useRef(false);
  // The redirect to My Bookings does not outlive the form (the member may have left already).
  const redirect = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirect.current), []);
  async function submit({ bookingType }: BookingForm) {
    if (submitted.current) return;
    submitted.current = true;
    const result = await book(cls.id, bookingType);
    if (result?.status !== 'booked') {
      submitted.current = false;
      return;
    }
    if (result.booking_id) setBooked({ id: result.booking_id, message: bookedMessage(result) });
    toast.success(BOOKING_MESSAGES.formConfirmed, { id: BOOKING_OUTCOME_TOAST });
    redirect.current = window.setTimeout(() => void navigate(paths.myBookings), REDIRECT_DELAY_MS);
  }

  return (
    <form aria-label="Book this class" onSubmit={(e) => void handleSubmit(submit)(e)} className="space-y-5">
      <TextField
        label="Email"
        type="email"
        name="email"
        value={email}
        readOnly
        hint="Bookings are made for the account you are signed in with."
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Booking Type</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {options.map((option) => (
            <div key={option.value}>
              <label
                className={cn(
                  'flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50',
                  option.unavailable ? 'cursor-not-allowed bg-slate-50 text-slate-500' : 'cursor-pointer',
                )}
              >
                <input
                  type="radio"
                  value={option.value}
                  disabled={option.unavailable !== null}
                  aria-describedby={option.unavailable ? `type-${option.value}-reason` : undefined}
                  {...register('bookingType')}
                  className="accent-brand-600"
                />
                {option.label}
              </label>
              {option.unavailable && (
                <p id={`type-${option.value}-reason`} className="mt-1 px-1 text-xs text-slate-600">
                  {option.unavailable}
                </p>
              )}
            </div>
          ))}
        </div>
      </fieldset>
      {note && <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{note}</p>}
      <AttendancePolicyNote window={cls.late_cancel_from ? cancelWindowText(cls) : null} now={now} />
      {lock.locked && lock.opensAt && (
        <p className="rounded-lg bg-blue-50 p-3 text-sm text-blue-900">
          This premium class opens for booking in {formatTimeLeft(lock.opensAt, now)}.
        </p>
      )}
      <Button
        type="submit"
        size="lg"
        className="w-full"
        loading={isBooking}
        disabled={isBooking || blocked !== null || Boolean(chosen?.unavailable)}
      >
        {isBooking ? 'Booking...' : (blocked ?? 'Confirm Booking')}
      </Button>
      {bookingId && (
        <div
          role="status"
          className="flex flex-col gap-3 rounded-lg border border-green-200 bg-green-50 p-4 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="flex items-center gap-2 text-sm font-medium text-green-900">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0" />
            <span>
              <span className="block">{booked?.message}</span>
              Put it in your calendar?
            </span>
          </p>
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              downloadBookingIcs({
                id: bookingId,
                className: cls.name,
                trainer: cls.trainer,
                startsAt: new Date(cls.start_time),
                duration: cls.duration,
                description: cls.description,
                location: cls.location,
                directions: cls.directions,
              })
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
