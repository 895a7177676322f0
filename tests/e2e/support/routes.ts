/** Every route of spec section 2, as a URL to open (the smoke list). */
export const PUBLIC_ROUTES = [
  '/',
  '/schedule',
  '/membership',
  '/signin',
  '/free-trial',
  '/auth/callback',
  '/guest/cancel',
  '/guest/waiver',
  '/legal/terms',
  '/legal/privacy',
  '/legal/cookies',
  '/gift-vouchers',
] as const;
export const MEMBER_ROUTES = [
  '/book?classId=x',
  '/dashboard',
  '/bookings',
  '/my-classes',
  '/my-schedule',
  '/personal-training',
  '/edit-profile',
  '/mybookings',
  '/check-in',
  '/agreements',
  '/coach',
  '/redeem',
] as const;
export const ADMIN_ROUTES = [
  '/admin',
  '/admin/classes',
  '/admin/bookings',
  '/admin/members',
  '/admin/analytics',
  '/admin/contacts',
  '/admin/check-in',
  '/admin/trainers',
  '/admin/import',
  '/admin/documents',
  '/admin/generate-classes',
  '/admin/settings',
  '/admin/activity',
  '/admin/system-health',
  '/admin/gift-vouchers',
] as const;
export const ADMIN_LOGIN = '/admin/login';
export const UNKNOWN_ROUTE = '/no-such-page-here';

export const ALL_ROUTES = [...PUBLIC_ROUTES, ...MEMBER_ROUTES, ADMIN_LOGIN, ...ADMIN_ROUTES, UNKNOWN_ROUTE] as const;

/** The router's default error screen (spec section 2): its presence means a route crashed. */
export const ROUTER_ERROR_TEXT = 'Unexpected Application Error!';
