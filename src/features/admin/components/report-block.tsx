import type { ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';

/** A report's block: heading, what it counts, then its chart and table (or a spinner). */
export function ReportBlock({
  id,
  title,
  intro,
  loading,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-8 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h3 id={id} className="text-lg font-bold text-slate-900">
        {title}
      </h3>
      <p className="mb-4 text-sm text-slate-600">{intro}</p>
      {loading ? <Spinner label={`Loading ${title.toLowerCase()}`} /> : children}
    </section>
  );
}
