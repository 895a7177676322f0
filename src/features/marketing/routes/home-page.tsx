import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function HomePage() {
  return <PagePlaceholder title="Mind and body transformation starts here" />;
}
