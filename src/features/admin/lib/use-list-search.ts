import { useState } from 'react';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

/** How long typing pauses before the search goes to the server. */
const SEARCH_DELAY_MS = 300;

/**
 * The page and search state of a server-paged admin list: `term` is the settled (debounced,
 * trimmed) search the query is keyed by; a new term starts again at the first page.
 */
export function useListSearch() {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  // The page belongs to the term it was chosen for.
  const [paging, setPaging] = useState({ term, page: 0 });
  const page = paging.term === term ? paging.page : 0;
  const setPage = (next: number) => setPaging({ term, page: next });

  return { search, setSearch, term, page, setPage, searching: search.trim() !== '' || term !== '' };
}
