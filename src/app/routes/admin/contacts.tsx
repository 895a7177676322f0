import { MembersToContactList } from '@/features/admin/components/members-to-contact-list';
import { PageHeading } from '@/features/admin/components/page-heading';

/** /admin/contacts: members the studio should get in touch with, and why. */
export function AdminContactsRoute() {
  return (
    <>
      <PageHeading
        title="Members to contact"
        subtitle="Ended trials and memberships, payments due, members coming less often and credits about to expire."
      />
      <MembersToContactList />
    </>
  );
}
