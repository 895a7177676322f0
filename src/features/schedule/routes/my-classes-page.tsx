import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function MyClassesPage() {
  return <PagePlaceholder title="My Schedule" />;
}
