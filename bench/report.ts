/** One line of the bench's table: a measured figure and, where the repo keeps one, its budget. */
export interface Row {
  section: string;
  metric: string;
  value: string;
  budget?: string;
  /** true within budget, false over it, undefined when there is no budget. */
  ok?: boolean;
}

export class Report {
  readonly rows: Row[] = [];

  add(row: Row): void {
    this.rows.push(row);
    const status = row.ok === undefined ? '' : row.ok ? '  ok' : '  OVER BUDGET';
    console.log(`  ${row.section} · ${row.metric}: ${row.value}${row.budget ? ` (budget ${row.budget})` : ''}${status}`);
  }

  na(section: string, metric: string, reason: string): void {
    this.add({ section, metric, value: `n/a (${reason})` });
  }

  /** A figure against an upper (`max`) or lower (`min`) budget. */
  measure(section: string, metric: string, value: number, unit: string, digits: number, budget?: { max?: number; min?: number }): void {
    const shown = `${value.toFixed(digits)}${unit}`;
    if (!budget || (budget.max === undefined && budget.min === undefined)) return this.add({ section, metric, value: shown });
    const ok = budget.max !== undefined ? value <= budget.max : value >= budget.min!;
    const limit = budget.max !== undefined ? `≤ ${budget.max}${unit}` : `≥ ${budget.min}${unit}`;
    this.add({ section, metric, value: shown, budget: limit, ok });
  }

  /** A Markdown table (what README's performance section shows). */
  table(): string {
    const header = ['section', 'metric', 'value', 'budget', ''];
    const lines = this.rows.map((r) => [r.section, r.metric, r.value, r.budget ?? '', r.ok === undefined ? '' : r.ok ? 'ok' : 'over']);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
    const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
    return [fmt(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...lines.map(fmt)].join('\n');
  }
}
