/**
 * Query keys of every server resource, in one place so that a change made by one feature can
 * invalidate what another shows (booking a class changes the schedule, My Bookings, the
 * dashboard and the plan usage) without features importing each other. Keys are hierarchical:
 * invalidating `queryKeys.bookings.all` refreshes every bookings query.
 */
export const queryKeys = {
  member: {
    all: ['member'] as const,
    own: (userId: string) => ['member', 'own', userId] as const,
  },
  classes: {
    all: ['classes'] as const,
    list: (params: Record<string, unknown>) => ['classes', 'list', params] as const,
    detail: (classId: string) => ['classes', 'detail', classId] as const,
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
  /** The coach area (decision 0027): the caller's trainer, their classes and each class's roster. */
  coach: {
    all: ['coach'] as const,
    profile: (userId: string) => ['coach', 'profile', userId] as const,
    classes: () => ['coach', 'classes'] as const,
    roster: (classId: string) => ['coach', 'roster', classId] as const,
    /** Cover requests under way (decision 0087): the coach's own and the others' to accept. */
    cover: () => ['coach', 'cover'] as const,
    /** The coach's own pay statement for a month ('2026-11'). */
    pay: (month: string) => ['coach', 'pay', month] as const,
  },
  admin: {
    all: ['admin'] as const,
    flag: (email: string) => ['admin', 'flag', email] as const,
    stats: () => ['admin', 'stats'] as const,
    membershipStats: () => ['admin', 'stats', 'memberships'] as const,
    /** Direct Debits charged back: money owed back to the studio. */
    chargebacks: () => ['admin', 'chargebacks'] as const,
    /** Credits sold or granted and not yet used. */
    creditsOutstanding: () => ['admin', 'stats', 'credits'] as const,
    /** The Analytics reports for a London date range. */
    reports: (range: { from: string; to: string }) => ['admin', 'stats', 'reports', range.from, range.to] as const,
    /** Members the studio should contact and why. */
    membersToContact: () => ['admin', 'members-to-contact'] as const,
    /** Announcements to segments of members (decision 0090), newest first. */
    announcements: () => ['admin', 'announcements'] as const,
    /** Classes an announcement may be for (its attendees), around today. */
    announcementClasses: () => ['admin', 'announcements', 'classes'] as const,
    /** Today's classes with their bookings, for checking members in. */
    checkIn: () => ['admin', 'check-in'] as const,
    doorCode: () => ['admin', 'door-code'] as const,
    /** One member's bookings with their attendance marks. */
    memberAttendance: (memberId: string) => ['admin', 'member-attendance', memberId] as const,
    classes: (params: Record<string, unknown>) => ['admin', 'classes', params] as const,
    bookings: (params: Record<string, unknown>) => ['admin', 'bookings', params] as const,
    members: (params: Record<string, unknown>) => ['admin', 'members', params] as const,
    activity: (params: Record<string, unknown>) => ['admin', 'activity', params] as const,
    systemHealth: () => ['admin', 'system-health'] as const,
    waitlists: () => ['admin', 'waitlists'] as const,
    /** One class's places (admin_class_places): its roster and its printable register. */
    roster: (classId: string) => ['admin', 'roster', classId] as const,
    class: (classId: string) => ['admin', 'class', classId] as const,
    documents: () => ['admin', 'documents'] as const,
    memberDocuments: (unsignedOnly: boolean) => ['admin', 'member-documents', unsignedOnly] as const,
    memberSignatures: (memberId: string) => ['admin', 'member-signatures', memberId] as const,
    closures: () => ['admin', 'closures'] as const,
    /** Trainers and their published availability. */
    trainers: () => ['admin', 'trainers'] as const,
    /** Cover requests waiting for an admin, and the auto-approve setting (decision 0087). */
    cover: () => ['admin', 'cover'] as const,
    coverAutoApprove: () => ['admin', 'cover-auto-approve'] as const,
    /** The studio's review requests (decision 0088). */
    reviewRequests: () => ['admin', 'review-requests'] as const,
    /** Which sign-in account each trainer has (decision 0027). */
    trainerAccounts: () => ['admin', 'trainer-accounts'] as const,
    /** Places other than the hall where classes meet, and each template slot's (decision 0055). */
    meetingPoints: () => ['admin', 'meeting-points'] as const,
    dataRetention: () => ['admin', 'data-retention'] as const,
    slotMeetingPoints: () => ['admin', 'slot-meeting-points'] as const,
    /** A coach's pay statement for a month, and every coach's pay rates (decision 0056). */
    coachPay: (trainerId: string, month: string) => ['admin', 'coach-pay', trainerId, month] as const,
    payRates: () => ['admin', 'pay-rates'] as const,
    contactMessagesAll: () => ['admin', 'contact-messages'] as const,
    contactMessages: (params: Record<string, unknown>) => ['admin', 'contact-messages', params] as const,
    undeliveredEmails: () => ['admin', 'undelivered-emails'] as const,
    refundsOwed: () => ['admin', 'refunds-owed'] as const,
    paidBookingsAffected: (classId: string | null) => ['admin', 'paid-bookings-affected', classId] as const,
  },
} as const;
