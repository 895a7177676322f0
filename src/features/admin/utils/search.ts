/** Case-insensitive "contains" over a row's searchable texts. */
export function matchesSearch(term: string, texts: (string | null | undefined)[]): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return texts.some((text) => text?.toLowerCase().includes(needle));
}
