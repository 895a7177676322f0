import type { ReactNode } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CSV_MIME_TYPE, writeCsv, type CsvCell } from '@/lib/csv/write-csv';
import { downloadTextFile } from '@/lib/download-file';
import type { ReportRange } from '../lib/report-range';
import { td, th } from './table-styles';

/** One column of a report: its heading, the cell shown, and the value the CSV holds (plain numbers). */
export type ReportColumn<Row> = { header: string; show: (row: Row) => ReactNode; csv: (row: Row) => CsvCell };

/** A report's figures as a table with a caption, and the same rows as a CSV download. */
export function ReportTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  file,
  range,
}: {
  caption: string;
  columns: readonly ReportColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** The file's noun: `revenue-2026-01-01-to-2026-01-31.csv`. */
  file: string;
  range: ReportRange;
}) {
  function download() {
    const csv = writeCsv(
      columns.map((c) => ({ header: c.header, value: c.csv })),
      rows,
    );
    downloadTextFile(csv, `${file}-${range.from}-to-${range.to}.csv`, CSV_MIME_TYPE);
  }
  return (
    <div>
      {/* Focusable, so a keyboard can scroll a wide table sideways on a phone. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${caption}, table`}>
        <table className="min-w-full divide-y divide-slate-200">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={th}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {rows.map((row, i) => (
              <tr key={rowKey(row, i)}>
                {columns.map((c) => (
                  <td key={c.header} className={`${td} tabular-nums`}>
                    {c.show(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex justify-end">
        <Button variant="outline" onClick={download} aria-label={`Download CSV: ${caption}`}>
          <Download aria-hidden="true" className="h-4 w-4" />
          Download CSV
        </Button>
      </div>
    </div>
  );
}
