import { Button } from '@/components/ui/button';
import { PAGE_SIZE } from '../lib/paging';

type Props = {
  /** Rows on this page. */
  shown: number;
  /** Rows the list's query matches (count=exact over the search, not the page). */
  total: number;
  /** While searching: how many rows there are in all, so a narrowed list says what it is out of. */
  overall?: number | null;
  noun: string;
  page: number;
  onPage: (page: number) => void;
};

/** "Showing X of Y ..." (X rows on screen, Y rows the search matches) with Previous and Next. */
export function ListFooter({ shown, total, overall, noun, page, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-600">
      <div aria-live="polite">
        <p>
          Showing {shown} of {total} {noun}
        </p>
        {overall != null && (
          <p className="text-xs text-slate-500">
            Matching your search, out of {overall} {noun} in all
          </p>
        )}
      </div>
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
