import { fieldLabel } from '../lib/data-rights';

/**
 * One value of the data download as a person reads it (decision 0047's "readable page"): text as
 * text, a record as its fields and values, a list as numbered entries, nothing as "None". The
 * JSON file holds the same values; React escapes whatever text they contain.
 */
export function ReadableData({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-500">None</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-500">None</span>;
    return (
      <ol className="space-y-2">
        {(value as unknown[]).map((item, i) => (
          <li key={i} className="rounded-md border border-slate-100 p-2">
            <ReadableData value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <span className="text-slate-500">None</span>;
    return (
      <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[minmax(8rem,auto)_1fr]">
        {entries.map(([key, v]) => (
          <div key={key} className="contents">
            <dt className="font-medium text-slate-700">{fieldLabel(key)}</dt>
            <dd className="min-w-0 break-words text-slate-900">
              <ReadableData value={v} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>;
}
