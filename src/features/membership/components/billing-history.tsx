import { formatPounds } from '@/config/plans';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { STUDIO, STUDIO_ADDRESS_LINES } from '@/config/studio';
import { useAuth } from '@/lib/auth/auth-context';
import { useBillingHistory, type BillingPayment } from '../api/get-billing-history';
import { formatLondonDate } from '@/lib/studio-calendar';

const STATUS_TEXT: Record<BillingPayment['status'], string> = { paid: 'Paid', pending: 'Pending', failed: 'Failed', expired: 'Expired' };

/** /membership's billing history: every payment, with a printable receipt for each paid one. */
export function BillingHistory() {
  const { member } = useAuth();
  const history = useBillingHistory(member?.id ?? null);
  const [receipt, setReceipt] = useState<BillingPayment | null>(null);
  if (!member) return null;
  return (
    <section aria-labelledby="billing-history-heading" className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
      <Card>
        <h2 id="billing-history-heading" className="text-xl font-bold tracking-tight">
          Billing history
        </h2>
        {history.isPending ? (
          <Spinner label="Loading your payments" />
        ) : history.isError ? (
          <p role="alert" className="mt-3 text-red-700">
            Failed to load your payments
          </p>
        ) : history.data.length === 0 ? (
          <p className="mt-3 text-slate-600">No payments yet.</p>
        ) : (
          // `relative`: the screen-reader-only header (absolutely positioned) stays inside the scroll
          // box instead of widening the page on a phone.
          <div className="relative mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    What
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Status
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Receipt</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.data.map((p) => (
                  <tr key={p.id} className="border-t border-slate-100">
                    <td className="py-2 pr-4 whitespace-nowrap">{formatLondonDate(p.paid_at ?? p.created_at)}</td>
                    <td className="py-2 pr-4">{p.description}</td>
                    <td className="py-2 pr-4 whitespace-nowrap">{formatPounds(p.amount)}</td>
                    <td className="py-2 pr-4">
                      <Badge>{STATUS_TEXT[p.status]}</Badge>
                    </td>
                    <td className="py-2 text-right">
                      {p.status === 'paid' && (
                        <Button size="sm" variant="ghost" onClick={() => setReceipt(p)} aria-label={`Receipt for ${p.description}`}>
                          Receipt
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {receipt && <ReceiptDialog payment={receipt} onClose={() => setReceipt(null)} />}
    </section>
  );
}

/** Prints only the receipt, whatever else is on the page. */
const PRINT_ONLY_RECEIPT =
  '@media print { body * { visibility: hidden; } .print-receipt, .print-receipt * { visibility: visible; } .print-receipt { position: absolute; inset: 0; } }';

function ReceiptDialog({ payment, onClose }: { payment: BillingPayment; onClose: () => void }) {
  return (
    <Modal open onClose={onClose} title="Receipt">
      <style>{PRINT_ONLY_RECEIPT}</style>
      <div className="print-receipt space-y-4 text-slate-900">
        <div>
          <p className="text-lg font-bold">{STUDIO.name}</p>
          <address className="not-italic text-sm text-slate-600">
            {STUDIO_ADDRESS_LINES.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-medium text-slate-500">Date</dt>
          <dd>{formatLondonDate(payment.paid_at ?? payment.created_at)}</dd>
          <dt className="font-medium text-slate-500">Member</dt>
          <dd>
            {payment.billed_name ?? ''} {payment.billed_email ? `(${payment.billed_email})` : ''}
          </dd>
          <dt className="font-medium text-slate-500">Item</dt>
          <dd>{payment.description}</dd>
          <dt className="font-medium text-slate-500">Amount</dt>
          <dd className="font-semibold">{formatPounds(payment.amount)}</dd>
          <dt className="font-medium text-slate-500">Reference</dt>
          <dd className="break-all">{payment.checkout_reference}</dd>
        </dl>
      </div>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button onClick={() => window.print()}>Print receipt</Button>
      </div>
    </Modal>
  );
}
