import { ContactMessagesList } from '@/features/admin/components/contact-messages-list';
import { PageHeading } from '@/features/admin/components/page-heading';
import { UndeliveredEmailsPanel } from '@/features/admin/components/undelivered-emails-panel';

/** /admin/messages: Contact Us messages to answer, and emails that could not be delivered (decision 0008). */
export function AdminMessagesRoute() {
  return (
    <>
      <PageHeading title="Messages" subtitle="What visitors sent through Contact Us, and emails the mail server would not take." />
      <ContactMessagesList />
      <UndeliveredEmailsPanel />
    </>
  );
}
