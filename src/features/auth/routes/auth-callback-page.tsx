import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function AuthCallbackPage() {
  return <PagePlaceholder title="Signing you in" />;
}
