import { formatPounds } from '@/config/plans';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { STUDIO, STUDIO_ADDRESS_LINES } from '@/config/studio';
import { useAuth } from '@/lib/auth/auth-context';
import { useBillingHistory, type BillingEntry } from '../api/get-billing-history';
import { COVERED_BY_TEXT, usePaymentPlaces } from '../api/get-payment-places';
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
          // One markup for both widths, its table roles stated so a phone's stacked cards still read
          // as a table: on a phone each payment is a card of labelled lines (a table cut at the edge
          // with a sideways scroll was hard to read); from `sm` up it is the table.
          // `relative`: the phone's screen-reader-only header stays inside the section.
          <table role="table" className="relative mt-4 block w-full text-left text-sm sm:table">
            <thead role="rowgroup" className="sr-only text-xs uppercase tracking-wide text-slate-500 sm:not-sr-only sm:table-header-group">
              <tr role="row">
                {['Date', 'What', 'Amount', 'Status'].map((h) => (
                  <th key={h} role="columnheader" scope="col" className="py-2 pr-4">
                    {h}
                  </th>
                ))}
                <th role="columnheader" scope="col" className="py-2">
                  <span className="sr-only">Receipt</span>
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup" className="flex flex-col gap-3 sm:table-row-group">
              {history.data.map((e) => (
                <tr
                  key={`${e.kind}-${e.id}`}
                  role="row"
                  className="block rounded-xl border border-slate-200 p-3 sm:table-row sm:rounded-none sm:border-0 sm:border-t sm:border-slate-100 sm:p-0"
                >
                  <Cell label="Date" className="sm:whitespace-nowrap">
                    {formatLondonDate(e.happenedAt)}
                  </Cell>
                  <Cell label="What">{entryText(e)}</Cell>
                  <Cell label="Amount" className="sm:whitespace-nowrap">
                    {entryAmount(e)}
                  </Cell>
                  <Cell label="Status">
                    <Badge>{STATUS_TEXT[e.kind]}</Badge>
                  </Cell>
                  <td role="cell" className="block pt-2 sm:table-cell sm:py-2 sm:text-right">
                    <Button
                      size="sm"
                      variant="outline"
                      className="w-full sm:w-auto"
                      onClick={() => setReceipt(e)}
                      aria-label={`Receipt for ${entryText(e)}`}
                    >
                      Receipt
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {receipt && <ReceiptDialog entry={receipt} onClose={() => setReceipt(null)} />}
    </section>
  );
}

/**
 * One value of a payment: on a phone a line of its card with its label (the column header is
 * read out by the table's roles, so the visible label is not read twice), from `sm` up a cell.
 */
function Cell({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <td role="cell" className={cn('flex items-baseline justify-between gap-4 py-1 sm:table-cell sm:py-2 sm:pr-4', className)}>
      <span aria-hidden="true" className="shrink-0 text-xs font-medium uppercase tracking-wide text-slate-500 sm:hidden">
        {label}
      </span>
      <span className="text-right sm:text-left">{children}</span>
    </td>
  );
}

/** Prints only the receipt, whatever else is on the page. */
const PRINT_ONLY_RECEIPT =
  '@media print { body * { visibility: hidden; } .print-receipt, .print-receipt * { visibility: visible; } .print-receipt { position: absolute; inset: 0; } }';

function ReceiptDialog({ entry, onClose }: { entry: BillingEntry; onClose: () => void }) {
  const placesQuery = usePaymentPlaces(entry.kind === 'payment' ? entry.id : null);
  const places = placesQuery.data ?? [];
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
          <dt className="font-medium text-slate-500">{places.length > 0 ? 'Total paid' : 'Amount'}</dt>
          <dd className="font-semibold">{entryAmount(entry)}</dd>
          <dt className="font-medium text-slate-500">Reference</dt>
          <dd className="break-all">{entry.reference}</dd>
        </dl>
        {places.length > 0 && (
          // A payment for several places lists each one: who, what covered it, its price (decision 0094).
          <table className="w-full text-left text-sm">
            <caption className="pb-2 text-left font-medium text-slate-500">Places</caption>
            <thead className="text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Who
                </th>
                <th scope="col" className="py-1 pr-3">
                  Covered by
                </th>
                <th scope="col" className="py-1 text-right">
                  Price
                </th>
              </tr>
            </thead>
            <tbody>
              {places.map((p) => (
                <tr key={p.position} className="border-t border-slate-100">
                  <td className="py-1 pr-3">{p.name}</td>
                  <td className="py-1 pr-3">{COVERED_BY_TEXT[p.covered_by] ?? p.covered_by}</td>
                  <td className="py-1 text-right whitespace-nowrap">{formatPounds(p.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
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
