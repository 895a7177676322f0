import { formatPounds } from '@/config/plans';

/**
 * The words for what the member's balance pays of a price before paying (decisions 0101 and 0108),
 * one wording for every checkout: a package, a membership's first month, a family's or a guest's
 * places. Null when the balance pays nothing. A membership the balance pays in full still saves a
 * card, for the renewals.
 */
export function balanceCoversText(cover: { balanceUsed: number; toCharge: number }, membership = false): string | null {
  if (cover.balanceUsed <= 0) return null;
  if (membership) {
    return cover.toCharge === 0
      ? `Your balance pays all of the first month (${formatPounds(cover.balanceUsed)}): you add a card for the renewals, nothing charged now.`
      : `Your balance pays ${formatPounds(cover.balanceUsed)} of the first month: ${formatPounds(cover.toCharge)} by card.`;
  }
  return cover.toCharge === 0
    ? `Your balance pays all of it (${formatPounds(cover.balanceUsed)}): nothing to pay by card.`
    : `Your balance pays ${formatPounds(cover.balanceUsed)} of it: ${formatPounds(cover.toCharge)} by card.`;
}
