import { AdminGuard } from '@/features/admin/components/admin-guard';
import { GenerateClasses } from '@/features/admin/components/generate-classes';

/** /admin/generate-classes: standalone (outside the admin shell), behind the same admin check. */
export function AdminGenerateClassesRoute() {
  return (
    <AdminGuard>
      <GenerateClasses />
    </AdminGuard>
  );
}
