import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { ListPage } from '../utils/paging';

/** How long typing pauses before the search goes to the server. */
export const SEARCH_DELAY_MS = 300;

type PagedState<T> = { status: 'loading' } | { status: 'error' } | { status: 'ready'; rows: T[]; total: number };

/**
 * One admin list read a page at a time, searched on the server. `load` must be stable; it gets
 * the zero-based page and the settled search term. A new search starts again at the first page.
 * While a page loads the previous rows stay on screen (`status` stays 'ready').
 */
export function usePagedList<T>(load: (page: number, search: string) => Promise<ListPage<T>>, failMessage: string) {
  const [state, setState] = useState<PagedState<T>>({ status: 'loading' });
  const [page, setPage] = useState(0);
  const [search, setSearchNow] = useState('');
  const [term, setTerm] = useState('');
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (search === term) return;
    const timer = setTimeout(() => {
      setTerm(search);
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, term]);

  useEffect(() => {
    let active = true;
    load(page, term.trim()).then(
      (result) => active && setState({ status: 'ready', rows: result.rows, total: result.total }),
      () => {
        if (!active) return;
        setState({ status: 'error' });
        toast.error(failMessage, { id: failMessage });
      },
    );
    return () => {
      active = false;
    };
  }, [load, page, term, failMessage, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);

  /** Drops a row the admin just deleted or cancelled, without another round trip. */
  const removeRow = useCallback((keep: (row: T) => boolean) => {
    setState((s) => {
      if (s.status !== 'ready') return s;
      const rows = s.rows.filter(keep);
      return { status: 'ready', rows, total: Math.max(0, s.total - (s.rows.length - rows.length)) };
    });
  }, []);

  return { state, page, setPage, search, setSearch: setSearchNow, searching: search.trim() !== '' || term.trim() !== '', reload, removeRow };
}
