import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RootLayout } from './routes/root-layout';
import { ErrorPage } from './routes/error-page';
import { NotFoundPage } from './routes/not-found-page';
import { RequireAuth } from './routes/require-auth';

/**
 * The route tree of spec section 2. Every screen is a lazy chunk, so a visitor's first page never
 * downloads member or admin code. `lazy` resolves to `{ Component }`, react-router's convention.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: [
      { index: true, lazy: () => import('@/features/marketing/routes/home-page').then((m) => ({ Component: m.HomePage })) },
      { path: 'schedule', lazy: () => import('@/features/schedule/routes/schedule-page').then((m) => ({ Component: m.SchedulePage })) },
      { path: 'membership', lazy: () => import('@/features/membership/routes/membership-page').then((m) => ({ Component: m.MembershipPage })) },
      { path: 'signin', lazy: () => import('@/features/auth/routes/sign-in-page').then((m) => ({ Component: m.SignInPage })) },
      { path: 'free-trial', lazy: () => import('@/features/auth/routes/free-trial-page').then((m) => ({ Component: m.FreeTrialPage })) },
      { path: 'auth/callback', lazy: () => import('@/features/auth/routes/auth-callback-page').then((m) => ({ Component: m.AuthCallbackPage })) },
      { path: 'payment/return', lazy: () => import('@/features/payments/routes/payment-return-page').then((m) => ({ Component: m.PaymentReturnPage })) },
      {
        element: <RequireAuth />,
        children: [
          { path: 'book', lazy: () => import('@/features/bookings/routes/book-class-page').then((m) => ({ Component: m.BookClassPage })) },
          { path: 'dashboard', lazy: () => import('@/features/dashboard/routes/dashboard-page').then((m) => ({ Component: m.DashboardPage })) },
          { path: 'mybookings', lazy: () => import('@/features/bookings/routes/my-bookings-page').then((m) => ({ Component: m.MyBookingsPage })) },
          { path: 'bookings', lazy: () => import('@/features/bookings/routes/my-bookings-page').then((m) => ({ Component: m.MyBookingsPage })) },
          { path: 'my-classes', lazy: () => import('@/features/schedule/routes/my-classes-page').then((m) => ({ Component: m.MyClassesPage })) },
          { path: 'my-schedule', lazy: () => import('@/features/schedule/routes/available-classes-page').then((m) => ({ Component: m.AvailableClassesPage })) },
          { path: 'edit-profile', lazy: () => import('@/features/profile/routes/edit-profile-page').then((m) => ({ Component: m.EditProfilePage })) },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: 'admin/login', errorElement: <ErrorPage />, lazy: () => import('@/features/admin/routes/admin-login-page').then((m) => ({ Component: m.AdminLoginPage })) },
  {
    path: 'admin/generate-classes',
    errorElement: <ErrorPage />,
    lazy: () => import('@/features/admin/routes/generate-classes-page').then((m) => ({ Component: m.GenerateClassesPage })),
  },
  {
    path: 'admin',
    errorElement: <ErrorPage />,
    lazy: () => import('@/features/admin/routes/admin-layout').then((m) => ({ Component: m.AdminLayout })),
    children: [
      { index: true, lazy: () => import('@/features/admin/routes/classes-management-page').then((m) => ({ Component: m.ClassesManagementPage })) },
      // "Back to Classes" (spec) targets /admin/classes: the same screen as the index.
      { path: 'classes', element: <Navigate to="/admin" replace /> },
      { path: 'bookings', lazy: () => import('@/features/admin/routes/bookings-management-page').then((m) => ({ Component: m.BookingsManagementPage })) },
      { path: 'members', lazy: () => import('@/features/admin/routes/members-management-page').then((m) => ({ Component: m.MembersManagementPage })) },
      { path: 'analytics', lazy: () => import('@/features/admin/routes/analytics-page').then((m) => ({ Component: m.AnalyticsPage })) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
