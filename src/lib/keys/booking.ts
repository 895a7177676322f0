/**
 * A member's bookings and what booking uses up: their member row, bookings, waitlist places,
 * plan usage, credits, the trainers of One-to-One sessions and attendance standing.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const bookingKeys = {
  member: {
    all: ['member'] as const,
    own: (userId: string) => ['member', 'own', userId] as const,
  },
  bookings: {
    all: ['bookings'] as const,
    mine: (memberId: string) => ['bookings', 'mine', memberId] as const,
    /** The member's cancelled bookings, kept by the database. */
    cancelled: (memberId: string) => ['bookings', 'cancelled', memberId] as const,
    /** The guests the member brings to their classes. */
    guests: (memberId: string) => ['bookings', 'guests', memberId] as const,
    /** How each booking can bring a guest: a pass, or the class's price. */
    guestOptions: (memberId: string) => ['bookings', 'guest-options', memberId] as const,
    /** A guest's own place, by their email link's token (no account): what the cancel page names. */
    guestPlace: (token: string) => ['bookings', 'guest-place', token] as const,
  },
  waitlist: {
    all: ['waitlist'] as const,
    mine: (memberId: string) => ['waitlist', 'mine', memberId] as const,
  },
  planUsage: {
    all: ['plan-usage'] as const,
    mine: (memberId: string) => ['plan-usage', memberId] as const,
  },
  credits: {
    all: ['credits'] as const,
    /** The member's usable credits. */
    mine: (memberId: string) => ['credits', 'mine', memberId] as const,
    /** What a One-to-One booking of this class would use. */
    forClass: (memberId: string, classId: string) => ['credits', 'for-class', memberId, classId] as const,
    /** A trainer's One-to-One sessions with what each booking would use. */
    trainingSlots: (memberId: string, trainerId: string) => ['credits', 'training-slots', memberId, trainerId] as const,
  },
  trainers: {
    all: ['trainers'] as const,
  },
  attendance: {
    all: ['attendance'] as const,
    /** The studio's attendance policy over time (decision 0080). */
    policies: () => ['attendance', 'policies'] as const,
    /** Late cancellations and no-shows: one member's, or everyone's for an admin ('all'). */
    incidents: (memberId: string) => ['attendance', 'incidents', memberId] as const,
    /** The member's own strikes, block and fees owed. */
    standing: (memberId: string) => ['attendance', 'standing', memberId] as const,
  },
} as const;
