import { useSearchParams } from 'react-router-dom';
import { GuestWaiverPanel } from '@/features/documents/components/guest-waiver-panel';

/** /guest/waiver?token=<the guest's token>: a guest signs the studio's waiver from the email's link. */
export function GuestWaiverRoute() {
  const [params] = useSearchParams();
  return <GuestWaiverPanel token={params.get('token') ?? ''} />;
}
