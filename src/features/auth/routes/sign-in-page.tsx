import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function SignInPage() {
  return <PagePlaceholder title="Sign In" />;
}
