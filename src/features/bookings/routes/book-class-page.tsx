import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function BookClassPage() {
  return <PagePlaceholder title="Book a Class" />;
}
