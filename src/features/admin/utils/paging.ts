/** Admin lists read one page at a time (issue 8: 100k classes, 1M bookings). */
export const PAGE_SIZE = 50;

/** One page of rows and how many rows the whole query has (PostgREST count=exact). */
export type ListPage<T> = { rows: T[]; total: number };

/** The inclusive row range of a zero-based page, as PostgREST's `range` takes it. */
export function pageRange(page: number): [number, number] {
  const from = page * PAGE_SIZE;
  return [from, from + PAGE_SIZE - 1];
}

/**
 * A "contains" pattern for PostgREST's ilike inside an `or=(...)` list: LIKE's own wildcards are
 * escaped (so "first_last@" means an underscore), then the value is double-quoted so commas and
 * parentheses in the search do not break the list.
 */
export function containsPattern(term: string): string {
  const like = `*${term.replace(/[\\%_]/g, '\\$&')}*`;
  return `"${like.replace(/[\\"]/g, '\\$&')}"`;
}

/** PostgREST `or` filter: any of `columns` contains `term` (case-insensitive). */
export function searchFilter(columns: readonly string[], term: string): string {
  const pattern = containsPattern(term.trim());
  return columns.map((column) => `${column}.ilike.${pattern}`).join(',');
}
