/**
 * A member's profile, documents and how they are told things.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const profileKeys = {
  profile: {
    all: ['profile'] as const,
    own: (userId: string) => ['profile', userId] as const,
  },
  /** The studio's documents and the member's signatures and health answers. */
  documents: {
    all: ['documents'] as const,
    current: (kind: string) => ['documents', 'current', kind] as const,
    mine: (memberId: string) => ['documents', 'mine', memberId] as const,
    /** Only where the member stands (my_documents), without the texts: what the dashboard needs. */
    mineStatus: (memberId: string) => ['documents', 'mine', memberId, 'status'] as const,
    health: (memberId: string) => ['documents', 'health', memberId] as const,
    /** The member's children and what is still to sign for each (family accounts). */
    family: (memberId: string) => ['documents', 'family', memberId] as const,
    /** A guest's class and the waiver to sign, by their email link's token (no account). */
    guestWaiver: (token: string) => ['documents', 'guest-waiver', token] as const,
  },
  emailPreferences: {
    mine: (memberId: string) => ['email-preferences', memberId] as const,
    /** Whether the member gets review requests (decision 0088). */
  },
  /** The preferences grid (channels x kinds of message) and the mobile number texts go to (decision 0091). */
  notificationPreferences: {
    mine: (memberId: string) => ['notification-preferences', memberId] as const,
    smsNumber: (memberId: string) => ['notification-preferences', memberId, 'sms-number'] as const,
  },
  /** Which pushes the member gets, and whether this browser receives them. */
  pushPreferences: {
    mine: (memberId: string) => ['push-preferences', memberId] as const,
  },
  pushDevice: {
    mine: (memberId: string) => ['push-device', memberId] as const,
  },
} as const;
