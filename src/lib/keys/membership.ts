/**
 * A member's plan, the offers on plans and their payments.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const membershipKeys = {
  membership: {
    all: ['membership'] as const,
    /** The caller's membership record (status, period, renewal;). */
    mine: (memberId: string) => ['membership', 'mine', memberId] as const,
    /** What upgrading to a plan charges now (less the unused days of the current one). */
    upgradeQuote: (planSlug: string) => ['membership', 'upgrade-quote', planSlug] as const,
    /** The member's pause still to come or running (the caller's own, or an admin's view of a member). */
    pause: (memberId: string) => ['membership', 'pause', memberId] as const,
    /** The studio's rules for pauses. */
    pauseRules: () => ['membership', 'pause-rules'] as const,
    /** How the caller pays their membership: card or Direct Debit, the mandate, the newest collection. */
    billing: (memberId: string) => ['membership', 'billing', memberId] as const,
    /** A card-saving checkout with nothing due, asked after on the way back (decision 0104). */
    cardStatus: (reference: string) => ['membership', 'card-status', reference] as const,
  },
  /** Gift vouchers and the member's balance (decisions 0100, 0101). */
  giftVouchers: {
    all: ['gift-vouchers'] as const,
    options: () => ['gift-vouchers', 'options'] as const,
    checkout: (reference: string) => ['gift-vouchers', 'checkout', reference] as const,
    admin: (search: string) => ['gift-vouchers', 'admin', search] as const,
    moneyHeld: () => ['gift-vouchers', 'money-held'] as const,
    balance: () => ['gift-vouchers', 'balance'] as const,
    /** The balance alone (the checkout's "your balance pays" line); under balance(), so a redeem refreshes it. */
    balanceTotal: () => ['gift-vouchers', 'balance', 'total'] as const,
    /** What the balance pays of a price that is not a plan (a family's or a guest's places: decision 0108). */
    balanceCover: (price: number) => ['gift-vouchers', 'balance', 'cover', price] as const,
  },
  /** Promo codes, intro offers and referrals (decisions 0083, 0084). */
  offers: {
    all: ['offers'] as const,
    /** What the caller pays for a plan with a promo code or an intro offer. */
    price: (planSlug: string, code: string | null, introOfferId: string | null) =>
      ['offers', 'price', planSlug, code, introOfferId] as const,
    intro: () => ['offers', 'intro'] as const,
    referral: () => ['offers', 'referral'] as const,
    /** Admins: every code and offer with its uses and discounts, and the referral reward. */
    report: () => ['offers', 'report'] as const,
    referralSettings: () => ['offers', 'referral-settings'] as const,
  },
  payments: {
    all: ['payments'] as const,
    status: (reference: string) => ['payments', 'status', reference] as const,
    /** The member's billing history. */
    history: (memberId: string) => ['payments', 'history', memberId] as const,
    /** The places a family payment bought (its receipt's lines). */
    places: (paymentId: string) => ['payments', 'places', paymentId] as const,
  },
} as const;
