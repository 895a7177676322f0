import { useSearchParams } from 'react-router-dom';
import { PaymentResult } from '@/features/payments/components/payment-result';

/** /payment/return?ref=<checkout reference>: the payment's outcome, read from the database. */
export function PaymentReturnRoute() {
  const [params] = useSearchParams();
  return <PaymentResult reference={params.get('ref') ?? ''} />;
}
