import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function ClassesManagementPage() {
  return <PagePlaceholder title="Classes Management" />;
}
