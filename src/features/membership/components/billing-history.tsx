import { formatPounds } from '@/config/plans';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { STUDIO, STUDIO_ADDRESS_LINES } from '@/config/studio';
import { useAuth } from '@/lib/auth/auth-context';
import { useBillingHistory, type BillingEntry } from '../api/get-billing-history';
import { formatLondonDate } from '@/lib/studio-calendar';

const STATUS_TEXT: Record<BillingEntry['kind'], string> = { payment: 'Paid', refund: 'Refunded' };

/** What a line is for: a refund names what it gives back, as its email's subject does. */
const entryText = (e: BillingEntry) => (e.kind === 'refund' ? `Refund: ${e.description}` : e.description);

/** A refund's amount is money back to the member: it never reads as another payment. */
const entryAmount = (e: BillingEntry) => (e.kind === 'refund' ? `\u2212${formatPounds(e.amount)}` : formatPounds(e.amount));

/**
 * /membership's billing history: money that moved (payments taken, refunds given; a checkout that
 * took nothing is not listed, my_billing_history), each with a printable receipt.
 */
export function BillingHistory() {
  const { member } = useAuth();
  const history = useBillingHistory(member?.id ?? null);
  const [receipt, setReceipt] = useState<BillingEntry | null>(null);
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
          // box instead of widening the page on a phone. On a phone the table scrolls sideways and
          // says so (never cut with no cue); the box takes focus so a keyboard scrolls it.
          <>
            <p className="mt-3 text-xs text-slate-500 sm:hidden">Swipe the table sideways for amounts and receipts →</p>
            <div
              role="group"
              aria-label="Payments table, scrolls sideways"
              tabIndex={0}
              className="relative mt-2 overflow-x-auto rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:mt-4 [background:linear-gradient(to_right,white_30%,transparent),linear-gradient(to_left,white_30%,transparent)_100%_0,radial-gradient(farthest-side_at_100%_50%,rgba(15,23,42,.18),transparent)_100%_0] [background-attachment:local,local,scroll] [background-repeat:no-repeat] [background-size:40px_100%,40px_100%,14px_100%]"
            >
              <table className="w-full min-w-[34rem] text-left text-sm">
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
                  {history.data.map((e) => (
                    <tr key={`${e.kind}-${e.id}`} className="border-t border-slate-100">
                      <td className="py-2 pr-4 whitespace-nowrap">{formatLondonDate(e.happenedAt)}</td>
                      <td className="py-2 pr-4">{entryText(e)}</td>
                      <td className="py-2 pr-4 whitespace-nowrap">{entryAmount(e)}</td>
                      <td className="py-2 pr-4">
                        <Badge>{STATUS_TEXT[e.kind]}</Badge>
                      </td>
                      <td className="py-2 text-right">
                        <Button size="sm" variant="ghost" onClick={() => setReceipt(e)} aria-label={`Receipt for ${entryText(e)}`}>
                          Receipt
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Card>
      {receipt && <ReceiptDialog entry={receipt} onClose={() => setReceipt(null)} />}
    </section>
  );
}

/** Prints only the receipt, whatever else is on the page. */
const PRINT_ONLY_RECEIPT =
  '@media print { body * { visibility: hidden; } .print-receipt, .print-receipt * { visibility: visible; } .print-receipt { position: absolute; inset: 0; } }';

function ReceiptDialog({ entry, onClose }: { entry: BillingEntry; onClose: () => void }) {
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
          <dd>{formatLondonDate(entry.happenedAt)}</dd>
          <dt className="font-medium text-slate-500">Member</dt>
          <dd>
            {entry.billedName ?? ''} {entry.billedEmail ? `(${entry.billedEmail})` : ''}
          </dd>
          <dt className="font-medium text-slate-500">Item</dt>
          <dd>{entryText(entry)}</dd>
          <dt className="font-medium text-slate-500">Amount</dt>
          <dd className="font-semibold">{entryAmount(entry)}</dd>
          <dt className="font-medium text-slate-500">Reference</dt>
          <dd className="break-all">{entry.reference}</dd>
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
