import { matchRoutes, type RouteObject } from 'react-router-dom';
import { withFirstReads, type RouteHandle } from './first-reads';
import { dataScreen, lazyScreen, lazyScreenOf } from './lazy-screen';
import { RootLayout } from './routes/root-layout';
import { RequireAuth } from './routes/require-auth';
import { paths } from '@/config/paths';
import { setRoutePrefetcher } from '@/lib/route-prefetch';

/** Nested route paths are relative to their parent: `/schedule` → `schedule`, `/admin/bookings` → `bookings`. */
const child = (path: string) => path.replace(/^\//, '');

// Every screen is a lazy chunk, so a visitor's first page never downloads member or admin code.
const Home = lazyScreen(() => import('./routes/home').then((m) => m.HomeRoute));
const NotFound = lazyScreen(() => import('./routes/not-found-page').then((m) => m.NotFoundPage));
const Schedule = dataScreen(() => import('./routes/schedule').then((m) => m.ScheduleRoute));
const Membership = dataScreen(() => import('./routes/membership').then((m) => m.MembershipRoute));
const SignIn = dataScreen(() => import('./routes/sign-in').then((m) => m.SignInRoute));
const FreeTrial = dataScreen(() => import('./routes/free-trial').then((m) => m.FreeTrialRoute));
const AuthCallback = dataScreen(() => import('./routes/auth-callback').then((m) => m.AuthCallbackRoute));
const PaymentReturn = dataScreen(() => import('./routes/payment-return').then((m) => m.PaymentReturnRoute));
const GiftVouchers = dataScreen(() => import('./routes/gift-vouchers').then((m) => m.GiftVouchersRoute));
const GiftVoucherReturn = dataScreen(() => import('./routes/gift-vouchers').then((m) => m.GiftVoucherReturnRoute));
const Redeem = dataScreen(() => import('./routes/gift-vouchers').then((m) => m.RedeemRoute));
const GuestCancel = dataScreen(() => import('./routes/guest-cancel').then((m) => m.GuestCancelRoute));
const GuestWaiver = dataScreen(() => import('./routes/guest-waiver').then((m) => m.GuestWaiverRoute));
const LegalDocument = dataScreen(() => import('./routes/legal-document').then((m) => m.LegalDocumentRoute));
const Agreements = dataScreen(() => import('./routes/agreements').then((m) => m.AgreementsRoute));
const Family = dataScreen(() => import('./routes/family').then((m) => m.FamilyRoute));
const Book = dataScreen(() => import('./routes/book').then((m) => m.BookRoute));
const CheckIn = dataScreen(() => import('./routes/check-in').then((m) => m.CheckInRoute));
const Dashboard = dataScreen(() => import('./routes/dashboard').then((m) => m.DashboardRoute));
const MyBookings = dataScreen(() => import('./routes/my-bookings').then((m) => m.MyBookingsRoute));
const MyClasses = dataScreen(() => import('./routes/my-classes').then((m) => m.MyClassesRoute));
const MySchedule = dataScreen(() => import('./routes/my-schedule').then((m) => m.MyScheduleRoute));
const PersonalTraining = dataScreen(() => import('./routes/personal-training').then((m) => m.PersonalTrainingRoute));
const EditProfile = dataScreen(() => import('./routes/edit-profile').then((m) => m.EditProfileRoute));
const Coach = dataScreen(() => import('./routes/coach').then((m) => m.CoachRoute));
const CoachClass = dataScreen(() => import('./routes/coach').then((m) => m.CoachClassRoute));
const AdminLogin = dataScreen(() => import('./routes/admin/login').then((m) => m.AdminLoginRoute));
const AdminGenerateClasses = dataScreen(() => import('./routes/admin/generate-classes').then((m) => m.AdminGenerateClassesRoute));

const myBookingsReads = withFirstReads(() => import('./routes/my-bookings-first-reads'));

/** The admin area with its own route table (admin-routes.tsx), loaded with the first admin screen. */
const loadAdminArea = () => import('./admin-routes').then((m) => m.AdminArea);
const AdminArea = lazyScreen(loadAdminArea);

/**
 * The route tree of spec section 2, in react-router's declarative mode (decision 0012): no route
 * has a loader or an action, and the data router is about 17 KB gzip more for every visitor.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // Visitor pages (decisions 0013, 0014): prerendered, their app starts after the first paint,
      // and eslint.config.js keeps supabase-js and zod out of everything they import
      // (scripts/visitor-path.js reads these marks).
      { index: true, element: <Home />, handle: { visitorPage: true } },
      { path: child(paths.schedule), element: <Schedule />, handle: { visitorPage: true } },
      { path: child(paths.membership), element: <Membership />, handle: { visitorPage: true } },
      { path: child(paths.signIn.path), element: <SignIn /> },
      { path: child(paths.freeTrial), element: <FreeTrial /> },
      { path: child(paths.authCallback), element: <AuthCallback /> },
      { path: child(paths.paymentReturn), element: <PaymentReturn /> },
      { path: child(paths.giftVouchers), element: <GiftVouchers /> },
      { path: child(paths.giftVoucherReturn), element: <GiftVoucherReturn /> },
      { path: child(paths.guestCancel), element: <GuestCancel /> },
      { path: child(paths.guestWaiver), element: <GuestWaiver /> },
      { path: child(paths.legal.path), element: <LegalDocument /> },
      {
        element: <RequireAuth />,
        children: [
          { path: child(paths.book.path), element: <Book /> },
          // A screen's first reads (first-reads.ts) are declared beside its route: they start at boot.
          { path: child(paths.dashboard), element: <Dashboard />, handle: withFirstReads(() => import('./routes/dashboard-first-reads')) },
          { path: child(paths.myBookings), element: <MyBookings />, handle: myBookingsReads },
          { path: child(paths.bookings), element: <MyBookings />, handle: myBookingsReads },
          { path: child(paths.myClasses), element: <MyClasses /> },
          {
            path: child(paths.mySchedule),
            element: <MySchedule />,
            handle: withFirstReads(() => import('./routes/my-schedule-first-reads')),
          },
          { path: child(paths.personalTraining), element: <PersonalTraining /> },
          { path: child(paths.editProfile), element: <EditProfile /> },
          { path: child(paths.checkIn), element: <CheckIn /> },
          { path: child(paths.agreements.path), element: <Agreements /> },
          { path: child(paths.coach.home), element: <Coach /> },
          { path: child(paths.coach.class.path), element: <CoachClass /> },
          { path: child(paths.family), element: <Family /> },
          { path: child(paths.redeem), element: <Redeem /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: child(paths.admin.login), element: <AdminLogin /> },
  { path: child(paths.admin.generateClasses), element: <AdminGenerateClasses /> },
  // Everything else under /admin: the admin area's table loads with it (admin-routes.tsx).
  { path: `${child(paths.admin.classes)}/*`, element: <AdminArea /> },
];

/**
 * Loads the lazy screens a location matches, so the router's first render there needs no
 * fallback: what hydrating prerendered HTML (and rendering it at build time) needs.
 */
export async function loadRouteModules(location: Pick<Location, 'pathname'>, tree: RouteObject[] = routes): Promise<void> {
  const matches = matchRoutes(tree, location) ?? [];
  await Promise.all(matches.map(({ route }) => lazyScreenOf(route.element)?.preload() ?? Promise.resolve()));
  // The admin area's screens are in its own table, below /admin.
  if (tree === routes && matches.some(({ route }) => lazyScreenOf(route.element) === AdminArea))
    await loadRouteModules(location, [{ path: child(paths.admin.classes), children: (await loadAdminArea()).routes }]);
}

/**
 * The handles of the routes a location matches, the admin area's included (its table loads with
 * it), and whether it is in the admin area (its screens' reads wait for the admin check).
 */
export async function routeHandlesAt(location: Pick<Location, 'pathname'>): Promise<{ handles: RouteHandle[]; adminArea: boolean }> {
  let matches = matchRoutes(routes, location) ?? [];
  const adminArea = matches.some(({ route }) => lazyScreenOf(route.element) === AdminArea);
  if (adminArea) matches = matchRoutes([{ path: child(paths.admin.classes), children: (await loadAdminArea()).routes }], location) ?? [];
  return { handles: matches.flatMap(({ route }) => (route.handle ? [route.handle as RouteHandle] : [])), adminArea };
}

// Nav links prefetch the screen they lead to on hover, touch or focus (lib/route-prefetch.ts).
setRoutePrefetcher((pathname) => void loadRouteModules({ pathname }).catch(() => undefined));
