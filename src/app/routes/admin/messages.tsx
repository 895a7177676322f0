import { AnnouncementsPanel } from '@/features/admin/components/announcements-panel';
import { ContactMessagesList } from '@/features/admin/components/contact-messages-list';
import { PageHeading } from '@/features/admin/components/page-heading';
import { UndeliveredEmailsPanel } from '@/features/admin/components/undelivered-emails-panel';

/**
 * /admin/messages: Contact Us messages to answer, emails that could not be delivered (decision
 * 0008), and announcements to groups of members (decision 0090).
 */
export function AdminMessagesRoute() {
  return (
    <>
      <PageHeading
        title="Messages"
        subtitle="What visitors sent through Contact Us, messages that could not be delivered, and announcements to members."
      />
      <ContactMessagesList />
      <UndeliveredEmailsPanel />
      <AnnouncementsPanel />
    </>
  );
}
