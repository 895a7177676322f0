import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { formatLondonDate } from '../lib/dates';
import { useGiftVoucherCheckout } from '../api/gift-vouchers';

/** Where the card checkout sends a voucher's buyer back: the payment's outcome, from the database. */
export function GiftVoucherReturn({ reference }: { reference: string }) {
  const checkout = useGiftVoucherCheckout(reference);
  if (!reference || checkout.isError) {
    return (
      <p role="alert" className="text-red-700">
        We could not find this gift voucher payment. If you paid, your receipt is on its way by email.
      </p>
    );
  }
  const c = checkout.data;
  if (!c || c.status === 'pending') return <Spinner label="Waiting for the card payment" />;
  if (c.status !== 'paid') {
    return (
      <Card className="p-4 sm:p-6" role="status">
        <h2 className="text-lg font-semibold text-slate-900">The payment did not go through</h2>
        <p className="mt-2 text-slate-700">Nothing was charged and no voucher was made. You can try again.</p>
      </Card>
    );
  }
  return (
    <Card className="p-4 sm:p-6" role="status">
      <h2 className="text-lg font-semibold text-slate-900">Thank you: your gift voucher is paid</h2>
      <p className="mt-2 text-slate-700">
        We will email {c.recipientName} their {formatPounds(c.amount)} gift voucher on {formatLondonDate(c.deliverOn)}.
        {c.expiresAt ? ` It can be redeemed until ${formatLondonDate(c.expiresAt)}.` : ''} Your receipt is on its way by email.
      </p>
    </Card>
  );
}
