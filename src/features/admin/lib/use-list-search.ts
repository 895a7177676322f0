import { useEffect, useState } from 'react';

/** How long typing pauses before the search goes to the server. */
const SEARCH_DELAY_MS = 300;

/**
 * The page and search state of a server-paged admin list: `term` is the settled (debounced,
 * trimmed) search the query is keyed by; a new term starts again at the first page.
 */
export function useListSearch() {
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(0);

  useEffect(() => {
    const next = search.trim();
    if (next === term) return;
    const timer = setTimeout(() => {
      setTerm(next);
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, term]);

  return { search, setSearch, term, page, setPage, searching: search.trim() !== '' || term !== '' };
}
