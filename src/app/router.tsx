import type { ComponentType } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { lazyScreen, lazyScreenOf } from './lazy-screen';
import { RootLayout } from './routes/root-layout';
import { RequireAuth } from './routes/require-auth';
import { paths } from '@/config/paths';
import { loadAppQueryClient } from '@/lib/app-query-client';

/** Nested route paths are relative to their parent: `/schedule` → `schedule`, `/admin/bookings` → `bookings`. */
const child = (path: string) => path.replace(/^\//, '');
const adminChild = (path: string) => path.replace(/^\/admin\//, '');

/**
 * A screen that reads or writes server data: TanStack Query's client loads with it. The home page
 * has none, so a visitor landing there never downloads the client (issue 17).
 */
const dataScreen = (load: () => Promise<ComponentType>) =>
  lazyScreen(() => Promise.all([load(), loadAppQueryClient()]).then(([screen]) => screen));

// Every screen is a lazy chunk, so a visitor's first page never downloads member or admin code.
const Home = lazyScreen(() => import('./routes/home').then((m) => m.HomeRoute));
const NotFound = lazyScreen(() => import('./routes/not-found-page').then((m) => m.NotFoundPage));
const Schedule = dataScreen(() => import('./routes/schedule').then((m) => m.ScheduleRoute));
const Membership = dataScreen(() => import('./routes/membership').then((m) => m.MembershipRoute));
const SignIn = dataScreen(() => import('./routes/sign-in').then((m) => m.SignInRoute));
const FreeTrial = dataScreen(() => import('./routes/free-trial').then((m) => m.FreeTrialRoute));
const AuthCallback = dataScreen(() => import('./routes/auth-callback').then((m) => m.AuthCallbackRoute));
const PaymentReturn = dataScreen(() => import('./routes/payment-return').then((m) => m.PaymentReturnRoute));
const GuestCancel = dataScreen(() => import('./routes/guest-cancel').then((m) => m.GuestCancelRoute));
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
const AdminLogin = dataScreen(() => import('./routes/admin/login').then((m) => m.AdminLoginRoute));
const AdminGenerateClasses = dataScreen(() => import('./routes/admin/generate-classes').then((m) => m.AdminGenerateClassesRoute));
const AdminLayout = dataScreen(() => import('./routes/admin/layout').then((m) => m.AdminLayoutRoute));
const AdminClasses = dataScreen(() => import('./routes/admin/classes').then((m) => m.AdminClassesRoute));
const AdminBookings = dataScreen(() => import('./routes/admin/bookings').then((m) => m.AdminBookingsRoute));
const AdminMembers = dataScreen(() => import('./routes/admin/members').then((m) => m.AdminMembersRoute));
const AdminAnalytics = dataScreen(() => import('./routes/admin/analytics').then((m) => m.AdminAnalyticsRoute));
const AdminMessages = dataScreen(() => import('./routes/admin/messages').then((m) => m.AdminMessagesRoute));
const AdminDocuments = dataScreen(() => import('./routes/admin/documents').then((m) => m.AdminDocumentsRoute));
const AdminClassRegister = dataScreen(() => import('./routes/admin/class-register').then((m) => m.AdminClassRegisterRoute));
const AdminContacts = dataScreen(() => import('./routes/admin/contacts').then((m) => m.AdminContactsRoute));
const AdminCheckIn = dataScreen(() => import('./routes/admin/check-in').then((m) => m.AdminCheckInRoute));
const AdminTrainers = dataScreen(() => import('./routes/admin/trainers').then((m) => m.AdminTrainersRoute));

/**
 * The route tree of spec section 2, in react-router's declarative mode (decision 0012): no route
 * has a loader or an action, and the data router is about 17 KB gzip more for every visitor.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <Home /> },
      { path: child(paths.schedule), element: <Schedule /> },
      { path: child(paths.membership), element: <Membership /> },
      { path: child(paths.signIn.path), element: <SignIn /> },
      { path: child(paths.freeTrial), element: <FreeTrial /> },
      { path: child(paths.authCallback), element: <AuthCallback /> },
      { path: child(paths.paymentReturn), element: <PaymentReturn /> },
      { path: child(paths.guestCancel), element: <GuestCancel /> },
      { path: child(paths.legal.path), element: <LegalDocument /> },
      {
        element: <RequireAuth />,
        children: [
          { path: child(paths.book.path), element: <Book /> },
          { path: child(paths.dashboard), element: <Dashboard /> },
          { path: child(paths.myBookings), element: <MyBookings /> },
          { path: child(paths.bookings), element: <MyBookings /> },
          { path: child(paths.myClasses), element: <MyClasses /> },
          { path: child(paths.mySchedule), element: <MySchedule /> },
          { path: child(paths.personalTraining), element: <PersonalTraining /> },
          { path: child(paths.editProfile), element: <EditProfile /> },
          { path: child(paths.checkIn), element: <CheckIn /> },
          { path: child(paths.agreements.path), element: <Agreements /> },
          { path: child(paths.family), element: <Family /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: child(paths.admin.login), element: <AdminLogin /> },
  { path: child(paths.admin.generateClasses), element: <AdminGenerateClasses /> },
  {
    path: child(paths.admin.classes),
    element: <AdminLayout />,
    children: [
      { index: true, element: <AdminClasses /> },
      // "Back to Classes" (spec) targets /admin/classes: the same screen as the index.
      { path: adminChild(paths.admin.classesAlias), element: <Navigate to={paths.admin.classes} replace /> },
      { path: adminChild(paths.admin.bookings), element: <AdminBookings /> },
      { path: adminChild(paths.admin.members), element: <AdminMembers /> },
      { path: adminChild(paths.admin.analytics), element: <AdminAnalytics /> },
      { path: adminChild(paths.admin.messages), element: <AdminMessages /> },
      { path: adminChild(paths.admin.contacts), element: <AdminContacts /> },
      { path: adminChild(paths.admin.checkIn), element: <AdminCheckIn /> },
      { path: adminChild(paths.admin.trainers), element: <AdminTrainers /> },
      { path: adminChild(paths.admin.documents), element: <AdminDocuments /> },
      { path: adminChild(paths.admin.register.path), element: <AdminClassRegister /> },
    ],
  },
];

/**
 * Loads the lazy screens a location matches, so the router's first render there needs no
 * fallback: what hydrating prerendered HTML (and rendering it at build time) needs.
 */
export async function loadRouteModules(location: Pick<Location, 'pathname'>, tree: RouteObject[] = routes): Promise<void> {
  const matches = matchRoutes(tree, location) ?? [];
  await Promise.all(matches.map(({ route }) => lazyScreenOf(route.element)?.preload() ?? Promise.resolve()));
}
