import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function SchedulePage() {
  return <PagePlaceholder title="Class Schedule" />;
}
