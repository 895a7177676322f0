import { useAuth } from '@/lib/auth/auth-context';
import { formatPounds } from '@/config/plans';
import type { ScheduleClass } from '../api/get-class-schedule';
import { useCreditForClass } from '../api/get-credit-for-class';
import { useMyBalanceTotal } from '../api/get-my-balance';
import { usePlanUsage } from '../api/get-plan-usage';
import { bookingTypeNote, CLASS_CREDIT_LABEL, isOneToOne, takesClassCredit } from '../lib/booking-type';

/**
 * What pressing Book Now will cost, said on the card before the member presses it (decision 0010): a
 * class the server would send to the card checkout (its `needs_payment` fact), e.g. past a plan's
 * allowance "You've used your 12 classes this month: this one is £10.00." The usage is the one
 * cached read every usage screen shares. The card renders it only for such a class. A One-to-One
 * session says the credit it would use instead, when the member has one; a group class says the
 * member can book it with a class credit on the booking form (decision 0102). A member with a
 * balance (decision 0101) is told it pays first: the checkout takes it before the card.
 */
export function PaymentNote({ cls }: { cls: ScheduleClass }) {
  const { member } = useAuth();
  const usage = usePlanUsage(member?.id ?? null);
  const oneToOne = isOneToOne(cls);
  const classCredit = takesClassCredit(cls);
  const credit = useCreditForClass(member?.id ?? null, cls.id, oneToOne || classCredit);
  const balance = useMyBalanceTotal(Boolean(member)).data ?? 0;
  if ((oneToOne || classCredit) && credit.isPending) return null;
  if (classCredit && credit.data?.credit_id)
    return (
      <p className="mt-2 text-sm font-medium text-emerald-800">
        You have a class credit: choose “{CLASS_CREDIT_LABEL}” after Book Now and this class is free.
      </p>
    );
  const note = bookingTypeNote(cls, credit.data?.credit_id ? 'credit' : 'payg', usage.data, credit.data);
  if (!note) return null;
  const paysByCard = !credit.data?.credit_id;
  return (
    <p className="mt-2 text-sm font-medium text-amber-800">
      {note}
      {paysByCard && balance > 0 ? ` Your balance (${formatPounds(balance)}) pays first.` : ''}
    </p>
  );
}
