import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function MembersManagementPage() {
  return <PagePlaceholder title="Members Management" />;
}
