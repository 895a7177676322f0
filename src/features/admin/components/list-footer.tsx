import { Button } from '@/components/ui/button';
import { PAGE_SIZE } from '../utils/paging';

type Props = { shown: number; total: number; noun: string; page: number; onPage: (page: number) => void };

/** "Showing X of Y ..." (X rows on screen, Y rows the query has) with Previous and Next. */
export function ListFooter({ shown, total, noun, page, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-600">
      <p aria-live="polite">
        Showing {shown} of {total} {noun}
      </p>
      {pages > 1 && (
        <nav aria-label={`${noun[0]!.toUpperCase()}${noun.slice(1)} pages`} className="flex items-center gap-2">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
