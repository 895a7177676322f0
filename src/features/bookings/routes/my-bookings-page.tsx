import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function MyBookingsPage() {
  return <PagePlaceholder title="My Bookings" />;
}
