import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { startDirectDebit, useMyBilling, useSetBillingMethod } from '../api/direct-debit';
import { billingSummary } from '../lib/billing-summary';

/**
 * "Payment method" on /membership (decision 0076): card or Direct Debit, and the switch. Direct
 * Debit without a live mandate goes to GoCardless's page to set one up; card needs nothing now
 * (without a saved card, "Add a card" saves one with nothing charged, decision 0104).
 */
export function PaymentMethod({ memberId }: { memberId: string }) {
  const billing = useMyBilling(memberId);
  const setMethod = useSetBillingMethod();
  const [leaving, setLeaving] = useState(false);
  if (!billing.data) return null;
  const data = billing.data;

  async function payByDirectDebit() {
    if (data.mandateStatus) {
      setMethod.mutate('direct_debit', {
        onSuccess: () => toast.success('Your membership is paid by Direct Debit from the next renewal.'),
        onError: () => toast.error('Could not change how you pay, please try again.'),
      });
      return;
    }
    setLeaving(true);
    const failed = await startDirectDebit();
    if (failed) {
      setLeaving(false);
      toast.error(failed);
    }
  }

  function payByCard() {
    setMethod.mutate('card', {
      onSuccess: () =>
        toast.success(
          data.hasCard
            ? 'Your membership is paid with your saved card from the next renewal.'
            : 'Add a card for your next renewal: nothing is charged until then.',
        ),
      onError: () => toast.error('Could not change how you pay, please try again.'),
    });
  }

  const needsMandate = data.method === 'direct_debit' && !data.mandateStatus;
  return (
    <section aria-labelledby="payment-method-heading" className="rounded-lg border border-slate-200 p-4">
      <h3 id="payment-method-heading" className="font-semibold">
        Payment method
      </h3>
      {billingSummary(data).map((line) => (
        <p key={line} className="mt-1 text-sm text-slate-700">
          {line}
        </p>
      ))}
      <div className="mt-3 flex flex-wrap gap-2">
        {(data.method === 'card' || needsMandate) && (
          <Button variant="secondary" loading={leaving || setMethod.isPending} onClick={() => void payByDirectDebit()}>
            {data.mandateStatus ? 'Pay by Direct Debit' : 'Set up Direct Debit'}
          </Button>
        )}
        {data.method === 'direct_debit' && (
          <Button variant="secondary" loading={setMethod.isPending} onClick={payByCard}>
            Pay by card instead
          </Button>
        )}
      </div>
    </section>
  );
}
