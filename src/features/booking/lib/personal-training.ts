import { formatClassDate } from '@/lib/studio-time';
import type { TrainingSlot } from '../api/get-personal-training';

/** "£115", "£62.50": a session's price as a card says it. */
export const sessionPrice = (price: number) => `£${Number.isInteger(price) ? price : price.toFixed(2)}`;

/**
 * What booking this session would use, said on its card before the member confirms:
 * the personal-training session that expires first, or the price paid at checkout.
 */
export function slotUses(slot: Pick<TrainingSlot, 'credit_id' | 'credit_expires_at' | 'price'>): string {
  if (slot.credit_id && slot.credit_expires_at)
    return `Uses 1 personal-training session, expires ${formatClassDate(slot.credit_expires_at)}`;
  return sessionPrice(Number(slot.price));
}
