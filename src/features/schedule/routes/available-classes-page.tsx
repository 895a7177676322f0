import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function AvailableClassesPage() {
  return <PagePlaceholder title="Available Classes" />;
}
