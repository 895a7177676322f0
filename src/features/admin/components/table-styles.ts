/** The admin tables' header and body cell classes, shared so every table lines up the same way. */
export const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
export const td = 'px-4 py-3 align-top text-sm text-slate-700';
