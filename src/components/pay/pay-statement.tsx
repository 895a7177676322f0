import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { CSV_MIME_TYPE, writeCsv } from '@/lib/csv/write-csv';
import { downloadTextFile } from '@/lib/download-file';
import { formatInLondon } from '@/lib/studio-calendar';
import { monthLabel, PAY_CSV_COLUMNS, payTotals, rateText, type PayLine } from '@/lib/pay/pay-lines';

type Props = {
  /** Whose statement, for the heading and the file name ("Coach Alex"). */
  who: string;
  month: string;
  lines: PayLine[] | undefined;
  pending: boolean;
  failed: boolean;
};

/**
 * A monthly pay statement (decision 0056): each class taught, the people checked in, the rate in force
 * then and the pay, with the totals, and the same as a CSV. Admins see any coach's; a coach their own.
 */
export function PayStatement({ who, month, lines, pending, failed }: Props) {
  if (pending) return <Spinner label="Loading the pay statement" />;
  if (failed || !lines) return <p role="alert">The pay statement could not be loaded. Refresh the page to try again.</p>;
  const totals = payTotals(lines);
  const title = `${who}: ${monthLabel(month)}`;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          <strong>{totals.classes}</strong> {totals.classes === 1 ? 'class' : 'classes'} taught, <strong>{totals.attendees}</strong> checked
          in, total <strong>{formatPounds(totals.total)}</strong>
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={lines.length === 0}
          onClick={() =>
            downloadTextFile(
              writeCsv(PAY_CSV_COLUMNS, lines),
              `pay-${who.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${month}.csv`,
              CSV_MIME_TYPE,
            )
          }
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Export CSV
        </Button>
      </div>
      {totals.withoutRate > 0 && (
        <p className="text-sm text-amber-800">
          {totals.withoutRate} {totals.withoutRate === 1 ? 'class has' : 'classes have'} no rate set, so{' '}
          {totals.withoutRate === 1 ? 'it pays' : 'they pay'} nothing yet.
        </p>
      )}
      {lines.length === 0 ? (
        <p className="text-sm text-slate-600">No classes taught in {monthLabel(month)}.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Pay statement, {title}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th scope="col" className="py-2 pr-3">
                  Class
                </th>
                <th scope="col" className="py-2 pr-3">
                  When
                </th>
                <th scope="col" className="py-2 pr-3">
                  Checked in
                </th>
                <th scope="col" className="py-2 pr-3">
                  Rate
                </th>
                <th scope="col" className="py-2 text-right">
                  Pay
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.classId} className="border-b border-slate-100">
                  <td className="py-2 pr-3">{l.className}</td>
                  <td className="py-2 pr-3">{formatInLondon(l.startTime, 'EEE d MMM, HH:mm')}</td>
                  <td className="py-2 pr-3">{l.attendees}</td>
                  <td className="py-2 pr-3">{rateText(l)}</td>
                  <td className="py-2 text-right">{l.amount === null ? '–' : formatPounds(l.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={4} className="py-2 pr-3 text-right">
                  Total
                </th>
                <td className="py-2 text-right font-semibold">{formatPounds(totals.total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </div>
  );
}
