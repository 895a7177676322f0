import { Outlet } from 'react-router-dom';
import { AdminGuard } from '../components/admin-guard';
import { AdminSidebar } from '../components/admin-sidebar';
import { useAdminLogout } from '../hooks/use-admin-logout';

export function AdminLayout() {
  const { logout, loggingOut } = useAdminLogout();
  return (
    <AdminGuard paused={loggingOut}>
      <div className="min-h-screen bg-slate-50 md:flex">
        <AdminSidebar onLogout={() => void logout()} loggingOut={loggingOut} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">
          <Outlet />
        </main>
      </div>
    </AdminGuard>
  );
}
