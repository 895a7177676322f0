/** A postgres_changes subscription filter: `column=op.value` (eq, neq, lt, lte, gt, gte, in). */
export interface ChangeFilter {
  column: string;
  op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
  value: string | string[];
}

export function parseFilter(filter: string | undefined): ChangeFilter | null | 'invalid' {
  if (!filter) return null;
  const m = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(filter);
  if (!m) return 'invalid';
  const [, column, op, raw] = m as unknown as [string, string, ChangeFilter['op'], string];
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(raw);
    if (!list) return 'invalid';
    return { column, op, value: list[1]!.split(',').map((v) => v.trim().replace(/^"(.*)"$/s, '$1')) };
  }
  return { column, op, value: raw };
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

function compare(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a row matches a filter (values compared as text, numerically when both are numbers). */
export function matchesFilter(filter: ChangeFilter | null, row: Record<string, unknown> | null): boolean {
  if (!filter) return true;
  if (!row) return false;
  const actual = text(row[filter.column]);
  if (actual === null) return false;
  switch (filter.op) {
    case 'eq':
      return compare(actual, filter.value as string) === 0;
    case 'neq':
      return compare(actual, filter.value as string) !== 0;
    case 'lt':
      return compare(actual, filter.value as string) < 0;
    case 'lte':
      return compare(actual, filter.value as string) <= 0;
    case 'gt':
      return compare(actual, filter.value as string) > 0;
    case 'gte':
      return compare(actual, filter.value as string) >= 0;
    case 'in':
      return (filter.value as string[]).some((v) => compare(actual, v) === 0);
  }
}
