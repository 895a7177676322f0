import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function AdminLoginPage() {
  return <PagePlaceholder title="Admin Portal" />;
}
