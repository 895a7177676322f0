import { lazy, Suspense } from 'react';
import type { ChartSpec } from '../lib/report-chart-spec';

// Chartist loads with the first chart, not with the admin portal.
const ChartistBars = lazy(() => import('./chartist-bars'));

/** A report's chart with its legend in words; the table beside it holds the same figures. */
export function ReportChart({ spec }: { spec: ChartSpec }) {
  return (
    <div className="mb-4">
      <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
        {spec.series.map((s) => (
          <li key={s.name} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: s.colour }} />
            {s.name}
          </li>
        ))}
      </ul>
      <Suspense fallback={<div className="h-60" />}>
        <ChartistBars spec={spec} />
      </Suspense>
    </div>
  );
}
