import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function BookingsManagementPage() {
  return <PagePlaceholder title="Bookings Management" />;
}
