import type { FillRow } from '../api/get-report';
import { formatPercent, WEEKDAY_LABELS, type ReportRange } from '../lib/report-range';
import { ReportBlock } from './report-block';
import { ReportTable, type ReportColumn } from './report-table';
import { td, th } from './table-styles';

const FILL_COLUMNS: readonly ReportColumn<FillRow>[] = [
  { header: 'Day', show: (r) => WEEKDAY_LABELS[(r.weekday ?? 1) - 1], csv: (r) => WEEKDAY_LABELS[(r.weekday ?? 1) - 1] },
  { header: 'Start', show: (r) => r.slot, csv: (r) => r.slot },
  { header: 'Classes', show: (r) => r.classes, csv: (r) => r.classes },
  { header: 'Places', show: (r) => r.places, csv: (r) => r.places },
  { header: 'Taken', show: (r) => r.taken, csv: (r) => r.taken },
  { header: 'Fill rate', show: (r) => formatPercent(r.fill_rate), csv: (r) => r.fill_rate },
];

/**
 * Darker the fuller; the figure is written in every cell, so colour is never the only cue. The
 * darkest shade keeps the dark text at 4.5:1.
 */
function cellStyle(rate: number) {
  return { backgroundColor: `rgba(67, 56, 202, ${(0.06 + (0.44 * Math.min(Math.max(rate, 0), 100)) / 100).toFixed(2)})`, color: '#0f172a' };
}

/** Fill rate by weekday (rows) and start time (columns), London time: a heat map that is a table. */
export function FillHeatMap({ range, rows: loaded }: { range: ReportRange; rows: FillRow[] | null }) {
  const rows = loaded ?? [];
  const slots = [...new Set(rows.map((r) => r.slot ?? ''))].sort();
  const days = [...new Set(rows.map((r) => r.weekday ?? 1))].sort();
  const at = (day: number, slot: string) => rows.find((r) => r.weekday === day && r.slot === slot);
  return (
    <ReportBlock
      id="report-fill"
      title="Fill rate by day and time"
      intro="Places taken (bookings and guests) out of places offered, for the classes that took place in the period."
      loading={!loaded}
    >
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No classes took place in this period.</p>
      ) : (
        <>
          <div className="mb-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Fill rate heat map, table">
            <table className="border-separate border-spacing-1">
              <caption className="sr-only">Fill rate heat map: days down, start times across</caption>
              <thead>
                <tr>
                  <td />
                  {slots.map((s) => (
                    <th key={s} scope="col" className={th}>
                      {s}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((day) => (
                  <tr key={day}>
                    <th scope="row" className={th}>
                      {WEEKDAY_LABELS[day - 1]}
                    </th>
                    {slots.map((slot) => {
                      const cell = at(day, slot);
                      return (
                        <td
                          key={slot}
                          className={`${td} min-w-16 rounded text-center font-semibold tabular-nums`}
                          style={cell ? cellStyle(cell.fill_rate ?? 0) : undefined}
                        >
                          {cell ? formatPercent(cell.fill_rate) : <span className="text-slate-400">—</span>}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <details>
            <summary className="cursor-pointer text-sm font-semibold text-slate-700">Every day and time, with classes and places</summary>
            <div className="mt-3">
              <ReportTable
                caption="Fill rate by day and time"
                columns={FILL_COLUMNS}
                rows={rows}
                rowKey={(r) => `${r.weekday}-${r.slot}`}
                file="fill-rate"
                range={range}
              />
            </div>
          </details>
        </>
      )}
    </ReportBlock>
  );
}
