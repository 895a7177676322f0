import { useId } from 'react';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import type { WeekFigures } from '../lib/analytics-figures';

const weekLabel = (weekStart: string) => formatInLondon(`${weekStart}T12:00:00Z`, DATE_FORMATS.dayMonth);
const shown = (percent: number | null, none: string) => (percent === null ? none : `${percent}%`);

function Bar({ label, percent, none, colour }: { label: string; percent: number | null; none: string; colour: string }) {
  return (
    <div className="grid grid-cols-[5.5rem_1fr_5.5rem] items-center gap-2 text-xs">
      <span className="text-slate-600">{label}</span>
      <div className="relative h-3 rounded bg-slate-100">
        {percent !== null && (
          <div className={`h-full rounded ${colour}`} style={{ width: `${percent}%`, minWidth: percent > 0 ? '3px' : 0 }} />
        )}
      </div>
      <span className="text-right tabular-nums text-slate-800">{shown(percent, none)}</span>
    </div>
  );
}

/**
 * Fill rate (bookings / capacity) and attendance rate (attended / marked) per week. Each
 * bar's figure is written beside it, and the same data is a table for screen readers.
 */
export function WeeklyRatesChart({ weeks }: { weeks: WeekFigures[] }) {
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId}>
      <figcaption id={captionId} className="sr-only">
        Fill rate and attendance rate for each of the last {weeks.length} weeks
      </figcaption>
      <ol aria-hidden="true" className="space-y-4">
        {weeks.map((w) => (
          <li key={w.weekStart}>
            <div className="mb-1 text-sm font-medium text-slate-800">Week of {weekLabel(w.weekStart)}</div>
            <div className="space-y-1">
              <Bar label="Fill rate" percent={w.fillPercent} none="No classes" colour="bg-brand-600" />
              <Bar label="Attendance" percent={w.attendancePercent} none="Not marked" colour="bg-green-600" />
            </div>
          </li>
        ))}
      </ol>
      <div className="sr-only">
        <table>
          <caption>Weekly fill and attendance</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">Fill rate</th>
              <th scope="col">Bookings / capacity</th>
              <th scope="col">Attendance rate</th>
              <th scope="col">Marked</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekStart}>
                <th scope="row">{weekLabel(w.weekStart)}</th>
                <td>{shown(w.fillPercent, 'No classes')}</td>
                <td>
                  {w.bookings} / {w.capacity}
                </td>
                <td>{shown(w.attendancePercent, 'Not marked')}</td>
                <td>{w.marked}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
