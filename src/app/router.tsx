import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
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
      { index: true, lazy: () => import('./routes/home').then((m) => ({ Component: m.HomeRoute })) },
      { path: child(paths.schedule), lazy: () => import('./routes/schedule').then((m) => ({ Component: m.ScheduleRoute })) },
      { path: child(paths.membership), lazy: () => import('./routes/membership').then((m) => ({ Component: m.MembershipRoute })) },
      { path: child(paths.signIn.path), lazy: () => import('./routes/sign-in').then((m) => ({ Component: m.SignInRoute })) },
      { path: child(paths.freeTrial), lazy: () => import('./routes/free-trial').then((m) => ({ Component: m.FreeTrialRoute })) },
      { path: child(paths.authCallback), lazy: () => import('./routes/auth-callback').then((m) => ({ Component: m.AuthCallbackRoute })) },
      { path: child(paths.paymentReturn), lazy: () => import('./routes/payment-return').then((m) => ({ Component: m.PaymentReturnRoute })) },
      {
        element: <RequireAuth />,
        children: [
          { path: child(paths.book.path), lazy: () => import('./routes/book').then((m) => ({ Component: m.BookRoute })) },
          { path: child(paths.dashboard), lazy: () => import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })) },
          { path: child(paths.myBookings), lazy: () => import('./routes/my-bookings').then((m) => ({ Component: m.MyBookingsRoute })) },
          { path: child(paths.bookings), lazy: () => import('./routes/my-bookings').then((m) => ({ Component: m.MyBookingsRoute })) },
          { path: child(paths.myClasses), lazy: () => import('./routes/my-classes').then((m) => ({ Component: m.MyClassesRoute })) },
          { path: child(paths.mySchedule), lazy: () => import('./routes/my-schedule').then((m) => ({ Component: m.MyScheduleRoute })) },
          { path: child(paths.editProfile), lazy: () => import('./routes/edit-profile').then((m) => ({ Component: m.EditProfileRoute })) },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: child(paths.admin.login), errorElement: <ErrorPage />, HydrateFallback: RouteFallback, lazy: () => import('./routes/admin/login').then((m) => ({ Component: m.AdminLoginRoute })) },
  {
    path: child(paths.admin.generateClasses),
    errorElement: <ErrorPage />,
    HydrateFallback: RouteFallback,
    lazy: () => import('./routes/admin/generate-classes').then((m) => ({ Component: m.AdminGenerateClassesRoute })),
  },
  {
    path: child(paths.admin.classes),
    errorElement: <ErrorPage />,
    HydrateFallback: RouteFallback,
    lazy: () => import('./routes/admin/layout').then((m) => ({ Component: m.AdminLayoutRoute })),
    children: [
      { index: true, lazy: () => import('./routes/admin/classes').then((m) => ({ Component: m.AdminClassesRoute })) },
      // "Back to Classes" (spec) targets /admin/classes: the same screen as the index.
      { path: adminChild(paths.admin.classesAlias), element: <Navigate to={paths.admin.classes} replace /> },
      { path: adminChild(paths.admin.bookings), lazy: () => import('./routes/admin/bookings').then((m) => ({ Component: m.AdminBookingsRoute })) },
      { path: adminChild(paths.admin.members), lazy: () => import('./routes/admin/members').then((m) => ({ Component: m.AdminMembersRoute })) },
      { path: adminChild(paths.admin.analytics), lazy: () => import('./routes/admin/analytics').then((m) => ({ Component: m.AdminAnalyticsRoute })) },
      { path: adminChild(paths.admin.messages), lazy: () => import('./routes/admin/messages').then((m) => ({ Component: m.AdminMessagesRoute })) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

/**
 * Loads the lazy screens a location matches and puts them on their routes, so a router created
 * afterwards renders that location at once (no fallback): what hydrating prerendered HTML needs.
 */
export async function loadRouteModules(location: Pick<Location, 'pathname'>): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = await route.lazy();
      Object.assign(route, module, { lazy: undefined });
    }),
  );
}
