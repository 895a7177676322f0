import { useId } from 'react';
import type { TierShare } from '../lib/analytics-figures';

const BAR_COLOURS: Record<TierShare['key'], string> = { premium: 'bg-purple-600', standard: 'bg-blue-600', payg: 'bg-slate-500' };
const GRID = [0, 25, 50, 75, 100];

/**
 * Membership Distribution as a horizontal bar chart on a 0-100% scale. Each bar's label, count
 * and share are real text beside it, and the chart is also given as a table for screen readers.
 */
export function MembershipChart({ shares, total }: { shares: TierShare[]; total: number }) {
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId}>
      <figcaption id={captionId} className="sr-only">
        Membership distribution: members per tier and their share of {total} members
      </figcaption>
      <div aria-hidden="true" className="space-y-4">
        {shares.map((s) => (
          <div key={s.key} className="grid grid-cols-[7.5rem_1fr] items-center gap-3 sm:grid-cols-[9rem_1fr_6rem]">
            <span className="text-sm font-medium text-slate-800">{s.label}</span>
            <div className="relative h-7 rounded bg-slate-100">
              {GRID.slice(1, -1).map((g) => (
                <span key={g} className="absolute inset-y-0 w-px bg-white" style={{ left: `${g}%` }} />
              ))}
              <div
                className={`relative h-full rounded ${BAR_COLOURS[s.key]}`}
                style={{ width: `${s.percent}%`, minWidth: s.count > 0 ? '4px' : 0 }}
              />
            </div>
            <span className="col-start-2 text-sm tabular-nums text-slate-700 sm:col-start-auto sm:text-right">
              {s.count} ({s.percent}%)
            </span>
          </div>
        ))}
        <div className="grid grid-cols-[7.5rem_1fr] gap-3 sm:grid-cols-[9rem_1fr_6rem]">
          <span />
          <div className="relative h-4 text-xs text-slate-500">
            {GRID.map((g) => (
              <span key={g} className="absolute -translate-x-1/2 tabular-nums" style={{ left: `${g}%` }}>
                {g}%
              </span>
            ))}
          </div>
        </div>
      </div>
      {/* A table's width follows its content, so the visually-hidden wrapper is a div. */}
      <div className="sr-only">
        <table>
          <caption>Membership Distribution</caption>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Members</th>
              <th scope="col">Share of total members</th>
            </tr>
          </thead>
          <tbody>
            {shares.map((s) => (
              <tr key={s.key}>
                <th scope="row">{s.label}</th>
                <td>{s.count}</td>
                <td>{s.percent}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
