import { Outlet } from 'react-router-dom';
import { AdminGuard } from '@/features/admin/components/admin-guard';
import { AdminSidebar } from '@/features/admin/components/admin-sidebar';
import { useAdminLogout } from '@/features/admin/lib/use-admin-logout';
import { useHealthCheckOnOpen } from '@/features/admin/api/system-health';

/** Opening the portal runs the watchdog (decision 0046), so a stopped job is noticed even between hourly runs. */
function HealthCheckOnOpen() {
  useHealthCheckOnOpen();
  return null;
}

/** /admin: the admin shell (sidebar, Logout) around the nested admin screens, behind the admin check. */
export function AdminLayoutRoute() {
  const { logout, loggingOut } = useAdminLogout();
  return (
    <AdminGuard paused={loggingOut}>
      <HealthCheckOnOpen />
      <div className="min-h-screen bg-slate-50 md:flex">
        <AdminSidebar onLogout={() => void logout()} loggingOut={loggingOut} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8 print:p-0">
          <Outlet />
        </main>
      </div>
    </AdminGuard>
  );
}
