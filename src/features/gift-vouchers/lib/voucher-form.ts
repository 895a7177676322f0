import { z } from 'zod';

/** The London calendar date of `at`, 'YYYY-MM-DD' (the studio's day: delivery dates are London dates). */
export function londonDate(at: Date): string {
  return at.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** The last delivery date the studio accepts: a year after today (London). */
export function latestDeliveryDate(today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return `${y + 1}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export const MESSAGE_MAX = 500;

/**
 * The buyer's form, checked before sending (the database checks everything again, decision
 * 0100): an amount in whole pounds within the studio's limits or a package, the recipient, a
 * plain-text message and a delivery date from today to a year ahead. A visitor also gives their
 * own name and email (for the receipt); a member's come from their account.
 */
export function giftVoucherSchema(limits: { minAmount: number; maxAmount: number }, today: string, visitor: boolean) {
  const amountText = `A whole number of pounds from £${limits.minAmount} to £${limits.maxAmount}`;
  return z
    .object({
      choice: z.string().min(1, 'Choose an amount or a package'),
      amount: z.string().trim(),
      recipientName: z.string().trim().min(1, "Enter the recipient's name").max(100, 'Up to 100 characters'),
      recipientEmail: z.string().trim().email("Enter the recipient's email address"),
      message: z.string().max(MESSAGE_MAX, `Up to ${MESSAGE_MAX} characters`),
      deliverOn: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the delivery date')
        .refine((d) => d >= today, 'The delivery date is today or later')
        .refine((d) => d <= latestDeliveryDate(today), 'The delivery date is at most a year ahead'),
      buyerName: visitor ? z.string().trim().min(1, 'Enter your name').max(100, 'Up to 100 characters') : z.string(),
      buyerEmail: visitor ? z.string().trim().email('Enter your email address, for the receipt') : z.string(),
    })
    .superRefine((v, ctx) => {
      if (v.choice !== 'amount') return;
      const n = Number(v.amount);
      if (!/^\d+$/.test(v.amount) || n < limits.minAmount || n > limits.maxAmount) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: amountText });
      }
    });
}

export type GiftVoucherForm = z.input<ReturnType<typeof giftVoucherSchema>>;
