/**
 * Every route of the app in one place (spec section 2). Links and redirects use these instead of
 * string literals, so a renamed route is one edit and a typo is a type error.
 */
export const paths = {
  home: '/',
  schedule: '/schedule',
  book: { path: '/book', href: (classId: string) => `/book?classId=${encodeURIComponent(classId)}` },
  membership: '/membership',
  signIn: {
    path: '/signin',
    href: (redirectTo?: string) => (redirectTo ? `/signin?redirect=${encodeURIComponent(redirectTo)}` : '/signin'),
  },
  freeTrial: '/free-trial',
  authCallback: '/auth/callback',
  paymentReturn: '/payment/return',
  /** Buy a gift voucher (anyone), and where its card checkout comes back to (decision 0100). */
  giftVouchers: '/gift-vouchers',
  giftVoucherReturn: '/gift-vouchers/return',
  /** A member redeems a gift voucher: `?code=…` from the email's link. */
  redeem: '/redeem',
  /** A guest's cancel link: `?token=…` from their email. */
  guestCancel: '/guest/cancel',
  /** A guest signs the studio's waiver before their class: `?token=…` from their email. */
  guestWaiver: '/guest/waiver',
  /** The studio's documents, public: /legal/terms, privacy, cookies, waiver, parq. */
  legal: { path: '/legal/:kind', href: (kind: string) => `/legal/${kind}` },
  /** Sign the terms and waiver, answer the PAR-Q; `next` is where to go once signed. */
  agreements: { path: '/agreements', href: (next?: string) => (next ? `/agreements?next=${encodeURIComponent(next)}` : '/agreements') },
  /** A parent's children and their signatures (family accounts). */
  family: '/family',
  dashboard: '/dashboard',
  myBookings: '/mybookings',
  bookings: '/bookings',
  myClasses: '/my-classes',
  mySchedule: '/my-schedule',
  /** One-to-One sessions with a trainer; `?trainer=<id>` opens that trainer's times. */
  personalTraining: '/personal-training',
  editProfile: '/edit-profile',
  /** A member checks in to their booked class with the day's door code. */
  checkIn: '/check-in',
  /** The coach area (decision 0027): the classes a coach teaches; each class's roster and check-in. */
  coach: {
    home: '/coach',
    class: { path: '/coach/classes/:classId', href: (classId: string) => `/coach/classes/${encodeURIComponent(classId)}` },
  },
  admin: {
    login: '/admin/login',
    generateClasses: '/admin/generate-classes',
    classes: '/admin',
    classesAlias: '/admin/classes',
    bookings: '/admin/bookings',
    members: '/admin/members',
    analytics: '/admin/analytics',
    messages: '/admin/messages',
    contacts: '/admin/contacts',
    checkIn: '/admin/check-in',
    trainers: '/admin/trainers',
    import: '/admin/import',
    documents: '/admin/documents',
    settings: '/admin/settings',
    /** One section of Admin > Settings (decision 0107); without a section, the overview. */
    settingsSection: {
      path: '/admin/settings/:section?',
      href: (section: string) => `/admin/settings/${encodeURIComponent(section)}`,
    },
    giftVouchers: '/admin/gift-vouchers',
    activity: '/admin/activity',
    systemHealth: '/admin/system-health',
    register: { path: '/admin/register/:classId', href: (classId: string) => `/admin/register/${encodeURIComponent(classId)}` },
  },
} as const;
