import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function MembershipPage() {
  return <PagePlaceholder title="Membership" />;
}
