import type { ReactNode } from 'react';

/** The white surface a table and its footer sit on, edge to edge (a Card without its padding). */
export function TablePanel({ children }: { children: ReactNode }) {
  return <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">{children}</div>;
}
