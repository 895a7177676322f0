import { lazy, Suspense } from 'react';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';

type Props = {
  open: boolean;
  onClose: () => void;
  /** What the enquiry is about (a plan name), stored with the message and put in its subject. */
  topic: string | null;
};

// The form (react-hook-form, zod) loads when a visitor opens the modal, not with /membership.
const ContactUsForm = lazy(() => import('./contact-us-form').then((m) => ({ default: m.ContactUsForm })));

export function ContactUsModal({ open, onClose, topic }: Props) {
  return (
    <Modal open={open} onClose={onClose} title="Contact Us" description={topic ? `About: ${topic}` : undefined}>
      <Suspense fallback={<Spinner label="Loading the form" />}>
        <ContactUsForm topic={topic} onClose={onClose} />
      </Suspense>
    </Modal>
  );
}
