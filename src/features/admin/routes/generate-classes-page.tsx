import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function GenerateClassesPage() {
  return <PagePlaceholder title="Generate Recurring Classes" />;
}
