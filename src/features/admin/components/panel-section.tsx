import type { ReactNode } from 'react';
import { TablePanel } from './table-panel';

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
