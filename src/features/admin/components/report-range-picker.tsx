import { useId, useMemo, useState } from 'react';
import { monthRange, recentMonths, type ReportRange } from '../lib/report-range';
import { controlClasses } from '@/components/ui/field-styles';

type Mode = 'month' | 'custom';

/** Month (this one or one of the 23 before) or a custom range of London dates. */
export function ReportRangePicker({ range, onChange }: { range: ReportRange; onChange: (range: ReportRange) => void }) {
  const months = useMemo(() => recentMonths(new Date()), []);
  const [mode, setMode] = useState<Mode>('month');
  const [custom, setCustom] = useState<ReportRange>(range);
  const id = useId();
  const customError = custom.from && custom.to && custom.from > custom.to ? 'The first day must come before the last.' : null;

  function editCustom(next: ReportRange) {
    setCustom(next);
    if (next.from && next.to && next.from <= next.to) onChange(next);
  }

  return (
    <fieldset className="mb-6 flex flex-wrap items-end gap-4 rounded-2xl border border-slate-200 bg-white p-4">
      <legend className="sr-only">Report period</legend>
      <div role="radiogroup" aria-label="Period" className="flex gap-3 text-sm">
        {(['month', 'custom'] as const).map((m) => (
          <label key={m} className="flex min-h-10 items-center gap-2">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === m}
              onChange={() => {
                setMode(m);
                if (m === 'custom') editCustom(range);
              }}
            />
            {m === 'month' ? 'Month' : 'Custom range'}
          </label>
        ))}
      </div>
      {mode === 'month' ? (
        <label className="text-sm font-medium text-slate-700">
          Month
          <select
            className={`${controlClasses(false)} mt-1`}
            value={range.from.slice(0, 7)}
            onChange={(e) => onChange(monthRange(e.target.value))}
          >
            {months.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <>
          <label className="text-sm font-medium text-slate-700">
            From
            <input
              type="date"
              className={`${controlClasses(Boolean(customError))} mt-1`}
              value={custom.from}
              onChange={(e) => editCustom({ ...custom, from: e.target.value })}
            />
          </label>
          <label className="text-sm font-medium text-slate-700">
            To
            <input
              type="date"
              className={`${controlClasses(Boolean(customError))} mt-1`}
              value={custom.to}
              onChange={(e) => editCustom({ ...custom, to: e.target.value })}
            />
          </label>
          {customError && (
            <p role="alert" className="text-sm text-red-700">
              {customError}
            </p>
          )}
        </>
      )}
      <p className="text-xs text-slate-500">London time; both days included.</p>
    </fieldset>
  );
}
