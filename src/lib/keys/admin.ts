/**
 * The admin screens' resources. Every key starts with 'admin', so invalidating
 * `adminKeys.all` refreshes them all.
 * Part of `queryKeys` (lib/query-keys.ts), which gathers every feature's keys.
 */
export const adminKeys = {
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
} as const;
