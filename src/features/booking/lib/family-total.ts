import type { ScheduleClass } from '../api/get-class-schedule';

/**
 * What a family booking costs (decision 0021): each child's place is the class's pay-as-you-go
 * price (free only when the class is free; never the plan or the trial), and the member's own
 * place what book_class would charge them (nothing on their plan or trial). `note` says why a
 * place is not charged: the class is free, or the member's plan or free trial covers their own.
 */
export function familyTotal(cls: Pick<ScheduleClass, 'price_payg' | 'needs_payment' | 'booking_type'>, self: boolean, children: number) {
  const price = cls.price_payg ?? 0;
  const amount = children * price + (self && cls.needs_payment ? price : 0);
  const note =
    price === 0
      ? 'this class is free'
      : self && !cls.needs_payment
        ? `your ${cls.booking_type === 'trial' ? 'free trial' : 'plan'} covers your place`
        : null;
  return { amount, note };
}
