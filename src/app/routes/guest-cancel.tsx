import { useSearchParams } from 'react-router-dom';
import { GuestCancelPanel } from '@/features/booking/components/guest-cancel-panel';

/** /guest/cancel?token=<the guest's token>: a guest cancels their place from the email's link. */
export function GuestCancelRoute() {
  const [params] = useSearchParams();
  return <GuestCancelPanel token={params.get('token') ?? ''} />;
}
