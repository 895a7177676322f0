/** Admin lists read one page at a time (100k classes, 1M bookings). */
export const PAGE_SIZE = 50;

/** One page of rows and how many rows the whole query has (PostgREST count=exact). */
export type ListPage<T> = { rows: T[]; total: number };

/**
 * Exports read the same queries in larger pages: hosted Supabase answers at most 1,000 rows a
 * request (its default max rows), so a page of 1,000 is the fewest round trips that stay whole.
 */
export const EXPORT_PAGE_SIZE = 1000;

/** A loader of one page of an admin list: zero-based page, settled search term, page size. */
export type PageLoader<T> = (page: number, search: string, size?: number) => Promise<ListPage<T>>;

/** The inclusive row range of a zero-based page, as PostgREST's `range` takes it. */
export function pageRange(page: number, size: number = PAGE_SIZE): [number, number] {
  const from = page * size;
  return [from, from + size - 1];
}

/** A "contains" pattern for PostgREST's ilike on one column: LIKE's own wildcards are escaped. */
export function likeContains(term: string): string {
  return `*${term.replace(/[\\%_]/g, '\\$&')}*`;
}

/**
 * A "contains" pattern for PostgREST's ilike inside an `or=(...)` list: LIKE's own wildcards are
 * escaped (so "first_last@" means an underscore), then the value is double-quoted so commas and
 * parentheses in the search do not break the list.
 */
export function containsPattern(term: string): string {
  const like = likeContains(term);
  return `"${like.replace(/[\\"]/g, '\\$&')}"`;
}

/** PostgREST `or` filter: any of `columns` contains `term` (case-insensitive). */
export function searchFilter(columns: readonly string[], term: string): string {
  const pattern = containsPattern(term.trim());
  return columns.map((column) => `${column}.ilike.${pattern}`).join(',');
}
