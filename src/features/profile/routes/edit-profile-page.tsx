import { PagePlaceholder } from '@/components/ui/page-placeholder';

export function EditProfilePage() {
  return <PagePlaceholder title="Edit Profile" />;
}
