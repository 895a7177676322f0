import { useRef, useState } from 'react';
import { toast } from '@/lib/toast';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CSV_MIME_TYPE, writeCsv, type CsvColumn } from '@/lib/csv/write-csv';
import { downloadTextFile } from '@/lib/download-file';
import { ADMIN_MESSAGES } from '../lib/messages';
import { ExportTooLargeError, exportFileName, fetchAllRows } from '../lib/export-csv';
import type { PageLoader } from '../lib/paging';

type Props<T> = {
  /** The list's own page loader, so the file holds exactly what the search matches. */
  load: PageLoader<T>;
  search: string;
  columns: readonly CsvColumn<T>[];
  /** Plural, lower case: the file name and the toasts ("bookings", "members"). */
  noun: string;
};

/** "Export CSV": every row matching the current search, downloaded as a spreadsheet-safe CSV. */
export function ExportCsvButton<T>({ load, search, columns, noun }: Props<T>) {
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  async function exportRows() {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const rows = await fetchAllRows(load, search);
      downloadTextFile(writeCsv(columns, rows), exportFileName(noun), CSV_MIME_TYPE);
      toast.success(ADMIN_MESSAGES.exported(rows.length, noun));
    } catch (error) {
      toast.error(error instanceof ExportTooLargeError ? error.message : ADMIN_MESSAGES.exportFailed);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" loading={busy} onClick={() => void exportRows()}>
      {!busy && <Download aria-hidden="true" className="h-4 w-4" />}
      {busy ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}
