/** One row of the preview or the import (public.import_row_outcome, supabase/schemas/25_import.sql). */
export interface ImportRowOutcome {
  line: number;
  kind: 'member' | 'child';
  name: string | null;
  email: string | null;
  outcome: 'created' | 'updated' | 'unchanged' | 'refused';
  actions: string[];
  refusals: string[];
}

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
}

export function countOutcomes(rows: readonly ImportRowOutcome[]): ImportCounts {
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const row of rows) counts[row.outcome] += 1;
  return counts;
}

/** '12 new, 1 updated, 3 unchanged, 2 refused' */
export function describeCounts(c: ImportCounts): string {
  return `${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged, ${c.refused} refused`;
}

/** The preview as plain text, one line per row (the CLI's --dry-run prints it). */
export function formatOutcomes(rows: readonly ImportRowOutcome[]): string {
  const lines = rows.map((r) => {
    const who = [r.name?.replace(/\s+/g, ' '), r.email && `<${r.email}>`].filter(Boolean).join(' ') || '(no name)';
    const what = r.outcome === 'refused' ? r.refusals.join(' ') : r.actions.join(' ');
    return `row ${r.line} ${r.kind === 'child' ? 'child ' : ''}${who}: ${r.outcome}: ${what}`;
  });
  return [...lines, describeCounts(countOutcomes(rows))].join('\n');
}
