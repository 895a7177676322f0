import { useAuth } from '@/lib/auth/auth-context';
import type { ScheduleClass } from '../api/get-class-schedule';
import { usePlanUsage } from '../api/get-plan-usage';
import { bookingTypeNote } from '../lib/booking-type';

/**
 * What pressing Book Now will cost, said on the card before the member presses it (issue 14): a
 * class the server would send to the card checkout (its `needs_payment` fact), e.g. past a plan's
 * allowance "You've used your 12 classes this month: this one is £10.00." The usage is the one
 * cached read every usage screen shares. The card renders it only for such a class.
 */
export function PaymentNote({ cls }: { cls: ScheduleClass }) {
  const { member } = useAuth();
  const usage = usePlanUsage(member?.id ?? null);
  const note = bookingTypeNote(cls, 'payg', usage.data);
  return note ? <p className="mt-2 text-sm font-medium text-amber-800">{note}</p> : null;
}
