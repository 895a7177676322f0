import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function DashboardPage() {
  return <PagePlaceholder title="Dashboard" />;
}
