import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function AnalyticsPage() {
  return <PagePlaceholder title="Analytics" />;
}
