import { BOOKING_TYPE_LABELS, type BookingType } from '@/config/booking-types';
import { formatClassDate } from '@/lib/studio-time';
import type { CreditChoice } from '../api/get-credit-for-class';
import type { ScheduleClass } from '../api/get-class-schedule';
import type { PlanUsage } from '../api/get-plan-usage';

export type BookingTypeOption = { value: BookingType; label: string; unavailable: string | null };

const price = (cls: Pick<ScheduleClass, 'price_payg'>) => `£${(cls.price_payg ?? 0).toFixed(2)}`;

/** Why the server would refuse a booking type, in the member's words (hints of docs/data-contract.md). */
function reason(hint: string | null, usage: PlanUsage | undefined): string | null {
  if (hint === null) return null;
  if (hint === 'plan_required') return 'For Standard and Platinum Premium members';
  if (hint === 'allowance_used')
    return usage?.allowance ? `You've used your ${usage.allowance} classes this month` : "You've used this month's classes";
  if (hint === 'trial_unavailable') return 'Your free trial has already been used';
  if (hint === 'outside_plan_period') return 'After your plan ends';
  if (hint === 'plan_paused') return 'Your membership is paused then';
  return 'Not available';
}

/** A One-to-One session (personal training): booked with a credit or paid for, never on a plan or the trial. */
export const isOneToOne = (cls: Pick<ScheduleClass, 'type'>) => cls.type === 'One-to-One';

/**
 * A group class the member would pay for, which a class credit can book instead (decision 0102):
 * my_credit_for_class answers for it, and the form offers "Use a class credit" when they have one.
 */
export const takesClassCredit = (cls: Pick<ScheduleClass, 'type' | 'price_payg'>) => !isOneToOne(cls) && (cls.price_payg ?? 0) > 0;

/** The booking form's option for a class credit. */
export const CLASS_CREDIT_LABEL = 'Use a class credit';

/** Why the member's credit cannot book this session, in their words (my_credit_for_class's). */
function creditUnavailable(credit: CreditChoice | undefined): string | null {
  if (!credit) return 'Checking your sessions…';
  if (credit.credit_id) return null;
  if (credit.refusal === 'weekly_cap_reached' && credit.message) return credit.message;
  return 'You have no personal-training sessions to use';
}

/**
 * The form's booking types (spec section 2), each with the server's reason when it is not open
 * to this member (class_schedule's paid_refusal / trial_refusal). Pay-as-you-go always is. A
 * One-to-One session offers a personal-training credit or paying its price, nothing else. A member
 * on a plan (their tier has a monthly allowance) is never shown the Free Trial: it is for
 * newcomers only, so offering it greyed out reads as something they lost. A paid group class adds
 * "Use a class credit" when the member has one (decision 0102).
 */
export function bookingTypeOptions(cls: ScheduleClass, usage: PlanUsage | undefined, credit?: CreditChoice): BookingTypeOption[] {
  if (isOneToOne(cls)) {
    return [
      { value: 'credit', label: BOOKING_TYPE_LABELS.credit, unavailable: creditUnavailable(credit) },
      { value: 'payg', label: BOOKING_TYPE_LABELS.payg, unavailable: null },
    ];
  }
  const onPlan = usage?.allowance !== null && usage?.allowance !== undefined;
  const options: BookingTypeOption[] = [
    { value: 'paid', label: BOOKING_TYPE_LABELS.paid, unavailable: reason(cls.paid_refusal, usage) },
    { value: 'trial', label: BOOKING_TYPE_LABELS.trial, unavailable: reason(cls.trial_refusal, usage) },
    { value: 'payg', label: BOOKING_TYPE_LABELS.payg, unavailable: null },
  ];
  const shown = onPlan ? options.filter((o) => o.value !== 'trial') : options;
  // Only where the server would send the member to pay (needs_payment): where the plan or the free
  // trial covers the class, book_with_credit refuses the credit (credit_not_needed).
  if (takesClassCredit(cls) && cls.needs_payment && credit?.credit_id)
    shown.push({ value: 'credit', label: CLASS_CREDIT_LABEL, unavailable: null });
  return shown;
}

/** What the chosen type costs, said before the member confirms (a credit's). */
export function bookingTypeNote(cls: ScheduleClass, type: BookingType, usage: PlanUsage | undefined, credit?: CreditChoice): string | null {
  if (type === 'credit') {
    if (!credit?.credit_id || !credit.expires_at) return null;
    return isOneToOne(cls)
      ? `Uses 1 personal-training session, expires ${formatClassDate(credit.expires_at)}.`
      : `Uses 1 class credit instead of paying ${price(cls)}, expires ${formatClassDate(credit.expires_at)}.`;
  }
  if (isOneToOne(cls) && (cls.price_payg ?? 0) > 0) return `This session is ${price(cls)}, paid by card at checkout.`;
  const paysByCard = type === 'payg' && (cls.price_payg ?? 0) > 0;
  if (!paysByCard) return null;
  if (cls.paid_refusal === 'allowance_used' && usage?.allowance)
    return `You've used your ${usage.allowance} classes this month: this one is ${price(cls)}.`;
  return `This class is ${price(cls)}, paid by card at checkout.`;
}
