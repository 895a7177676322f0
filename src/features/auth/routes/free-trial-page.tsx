import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function FreeTrialPage() {
  return <PagePlaceholder title="Your First Class Is On Us" />;
}
