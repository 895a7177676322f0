import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { withFirstReads } from './first-reads';
import { dataScreen } from './lazy-screen';
import { paths } from '@/config/paths';

/** Admin route paths are relative to /admin: `/admin/bookings` → `bookings`. */
const adminChild = (path: string) => path.replace(/^\/admin\/?/, '');

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
const AdminSettings = dataScreen(() => import('./routes/admin/settings').then((m) => m.AdminSettingsRoute));
const AdminActivity = dataScreen(() => import('./routes/admin/activity').then((m) => m.AdminActivityRoute));
const AdminSystemHealth = dataScreen(() => import('./routes/admin/system-health').then((m) => m.AdminSystemHealthRoute));
const AdminTrainers = dataScreen(() => import('./routes/admin/trainers').then((m) => m.AdminTrainersRoute));
const AdminImport = dataScreen(() => import('./routes/admin/import').then((m) => m.AdminImportRoute));
const AdminGiftVouchers = dataScreen(() => import('./routes/admin/gift-vouchers').then((m) => m.AdminGiftVouchersRoute));

/**
 * The admin area's routes (spec section 2), relative to /admin. A chunk of its own rather than
 * part of the app's route table (router.tsx), so a visitor's or a member's first download does
 * not carry every admin screen's entry and preload list.
 */
const adminRoutes: RouteObject[] = [
  {
    element: <AdminLayout />,
    children: [
      // A screen's first reads (first-reads.ts) are declared beside its route: they start at boot.
      { index: true, element: <AdminClasses />, handle: withFirstReads(() => import('./routes/admin/classes-first-reads')) },
      // "Back to Classes" (spec) targets /admin/classes: the same screen as the index.
      { path: adminChild(paths.admin.classesAlias), element: <Navigate to={paths.admin.classes} replace /> },
      { path: adminChild(paths.admin.bookings), element: <AdminBookings /> },
      { path: adminChild(paths.admin.members), element: <AdminMembers /> },
      {
        path: adminChild(paths.admin.analytics),
        element: <AdminAnalytics />,
        handle: withFirstReads(() => import('./routes/admin/analytics-first-reads')),
      },
      { path: adminChild(paths.admin.messages), element: <AdminMessages /> },
      { path: adminChild(paths.admin.contacts), element: <AdminContacts /> },
      { path: adminChild(paths.admin.checkIn), element: <AdminCheckIn /> },
      { path: adminChild(paths.admin.trainers), element: <AdminTrainers /> },
      { path: adminChild(paths.admin.import), element: <AdminImport /> },
      { path: adminChild(paths.admin.documents), element: <AdminDocuments /> },
      { path: adminChild(paths.admin.settingsSection.path), element: <AdminSettings /> },
      { path: adminChild(paths.admin.giftVouchers), element: <AdminGiftVouchers /> },
      { path: adminChild(paths.admin.activity), element: <AdminActivity /> },
      { path: adminChild(paths.admin.systemHealth), element: <AdminSystemHealth /> },
      { path: adminChild(paths.admin.register.path), element: <AdminClassRegister /> },
    ],
  },
];

/** The admin area under /admin/*: its screens at the router's location. `routes` is its table. */
export function AdminArea() {
  return useRoutes(adminRoutes);
}
AdminArea.routes = adminRoutes;
