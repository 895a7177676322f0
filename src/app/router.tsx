import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RootLayout } from './routes/root-layout';
import { ErrorPage } from './routes/error-page';
import { NotFoundPage } from './routes/not-found-page';
import { RequireAuth } from './routes/require-auth';
import { RouteFallback } from './routes/route-fallback';
import { paths } from '@/config/paths';

/** Nested route paths are relative to their parent: `/schedule` → `schedule`, `/admin/bookings` → `bookings`. */
const child = (path: string) => path.replace(/^\//, '');
const adminChild = (path: string) => path.replace(/^\/admin\//, '');

/**
 * The route tree of spec section 2. Every screen is a lazy chunk, so a visitor's first page never
 * downloads member or admin code. `lazy` resolves to `{ Component }`, react-router's convention.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    // Shown while the first screen's lazy chunk loads (react-router warns on every load without one).
    HydrateFallback: RouteFallback,
    children: [
      { index: true, lazy: () => import('@/features/marketing/routes/home-page').then((m) => ({ Component: m.HomePage })) },
      { path: child(paths.schedule), lazy: () => import('./routes/schedule').then((m) => ({ Component: m.ScheduleRoute })) },
      { path: child(paths.membership), lazy: () => import('@/features/membership/routes/membership-page').then((m) => ({ Component: m.MembershipPage })) },
      { path: child(paths.signIn.path), lazy: () => import('@/features/auth/routes/sign-in-page').then((m) => ({ Component: m.SignInPage })) },
      { path: child(paths.freeTrial), lazy: () => import('@/features/auth/routes/free-trial-page').then((m) => ({ Component: m.FreeTrialPage })) },
      { path: child(paths.authCallback), lazy: () => import('@/features/auth/routes/auth-callback-page').then((m) => ({ Component: m.AuthCallbackPage })) },
      { path: child(paths.paymentReturn), lazy: () => import('@/features/payments/routes/payment-return-page').then((m) => ({ Component: m.PaymentReturnPage })) },
      {
        element: <RequireAuth />,
        children: [
          { path: child(paths.book.path), lazy: () => import('./routes/book').then((m) => ({ Component: m.BookRoute })) },
          { path: child(paths.dashboard), lazy: () => import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })) },
          { path: child(paths.myBookings), lazy: () => import('./routes/my-bookings').then((m) => ({ Component: m.MyBookingsRoute })) },
          { path: child(paths.bookings), lazy: () => import('./routes/my-bookings').then((m) => ({ Component: m.MyBookingsRoute })) },
          { path: child(paths.myClasses), lazy: () => import('./routes/my-classes').then((m) => ({ Component: m.MyClassesRoute })) },
          { path: child(paths.mySchedule), lazy: () => import('./routes/my-schedule').then((m) => ({ Component: m.MyScheduleRoute })) },
          { path: child(paths.editProfile), lazy: () => import('@/features/profile/routes/edit-profile-page').then((m) => ({ Component: m.EditProfilePage })) },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: child(paths.admin.login), errorElement: <ErrorPage />, HydrateFallback: RouteFallback, lazy: () => import('@/features/admin/routes/admin-login-page').then((m) => ({ Component: m.AdminLoginPage })) },
  {
    path: child(paths.admin.generateClasses),
    errorElement: <ErrorPage />,
    HydrateFallback: RouteFallback,
    lazy: () => import('@/features/admin/routes/generate-classes-page').then((m) => ({ Component: m.GenerateClassesPage })),
  },
  {
    path: 'admin',
    errorElement: <ErrorPage />,
    HydrateFallback: RouteFallback,
    lazy: () => import('@/features/admin/routes/admin-layout').then((m) => ({ Component: m.AdminLayout })),
    children: [
      { index: true, lazy: () => import('@/features/admin/routes/classes-management-page').then((m) => ({ Component: m.ClassesManagementPage })) },
      // "Back to Classes" (spec) targets /admin/classes: the same screen as the index.
      { path: adminChild(paths.admin.classesAlias), element: <Navigate to={paths.admin.classes} replace /> },
      { path: adminChild(paths.admin.bookings), lazy: () => import('@/features/admin/routes/bookings-management-page').then((m) => ({ Component: m.BookingsManagementPage })) },
      { path: adminChild(paths.admin.members), lazy: () => import('@/features/admin/routes/members-management-page').then((m) => ({ Component: m.MembersManagementPage })) },
      { path: adminChild(paths.admin.analytics), lazy: () => import('@/features/admin/routes/analytics-page').then((m) => ({ Component: m.AnalyticsPage })) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
