import type { ReactNode } from 'react';
import { TablePanel } from './table-panel';
import { th } from './table-styles';

/**
 * A titled block below a page's main list (Refunds owed, Waitlists, Undelivered emails): its
 * heading names the region, an optional line says what it holds, then the panel.
 */
export function PanelSection({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className={`${intro ? 'mb-1' : 'mb-4'} text-xl font-bold text-slate-900`}>
        {title}
      </h2>
      {intro && <p className="mb-4 text-sm text-slate-600">{intro}</p>}
      <TablePanel>{children}</TablePanel>
    </section>
  );
}

/** An admin table that scrolls sideways on a phone: the column headings, then the rows given. */
export function ScrollTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={th}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </div>
  );
}
