/** The public header's links (spec section 2). */
export const PUBLIC_NAV_LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/schedule', label: 'Classes', end: false },
  { to: '/membership', label: 'Membership', end: false },
] as const;

/** The signed-in top navigation's links and labels (spec section 2). */
export const MEMBER_NAV_LINKS = [
  { to: '/dashboard', label: 'Dashboard', end: false },
  { to: '/my-classes', label: 'My Schedule', end: false },
  { to: '/my-schedule', label: 'Book a Class', end: false },
  { to: '/membership', label: 'Membership', end: false },
  { to: '/edit-profile', label: 'Edit Profile', end: false },
] as const;
