import { Search, X } from 'lucide-react';
import { controlClasses } from '@/components/ui/field';
import * as v from 'valibot';
import { dateFilterSchema, NO_FILTERS, typeFilterSchema, type ClassFilters } from '../api/get-class-schedule';
import { DATE_LABELS, TYPE_LABELS, activeFilters } from '../lib/class-filters';

type Props = { filters: ClassFilters; instructors: string[]; onChange: (filters: ClassFilters) => void };

/** Search, date, instructor and type filters, and the active-filter bar with Clear all. */
export function ClassFiltersPanel({ filters, instructors, onChange }: Props) {
  const set = <K extends keyof ClassFilters>(key: K, value: ClassFilters[K]) => onChange({ ...filters, [key]: value });
  const chips = activeFilters(filters);
  return (
    <div className="space-y-3">
      <div className="grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <label className="relative block">
          <span className="sr-only">Search classes</span>
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" />
          <input
            type="search"
            value={filters.search}
            onChange={(e) => set('search', e.target.value)}
            placeholder="Search classes or instructors..."
            className={`${controlClasses(false)} pl-9`}
          />
        </label>
        <label className="block">
          <span className="sr-only">Date</span>
          <select
            value={filters.date}
            onChange={(e) => set('date', v.parse(dateFilterSchema, e.target.value))}
            className={controlClasses(false)}
          >
            {dateFilterSchema.options.map((key) => (
              <option key={key} value={key}>
                {DATE_LABELS[key]}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="sr-only">Instructor</span>
          <select value={filters.instructor} onChange={(e) => set('instructor', e.target.value)} className={controlClasses(false)}>
            <option value="">All Instructors</option>
            {instructors.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="sr-only">Type</span>
          <select
            value={filters.type}
            onChange={(e) => set('type', v.parse(typeFilterSchema, e.target.value))}
            className={controlClasses(false)}
          >
            {typeFilterSchema.options.map((key) => (
              <option key={key} value={key}>
                {TYPE_LABELS[key]}
              </option>
            ))}
          </select>
        </label>
      </div>

      {chips.length > 0 && (
        <div role="region" aria-label="Active filters" className="flex flex-wrap items-center gap-2 rounded-xl bg-brand-50 px-3 py-2">
          <span className="text-sm font-semibold text-brand-900">Active filters:</span>
          {chips.map((chip) => (
            <button
              key={chip.key}
              type="button"
              onClick={() => set(chip.key, NO_FILTERS[chip.key])}
              className="inline-flex min-h-8 items-center gap-1 rounded-full bg-white px-3 text-sm font-medium text-slate-800 ring-1 ring-brand-200 hover:bg-brand-100"
              aria-label={`Remove filter ${chip.label}`}
            >
              {chip.label}
              <X aria-hidden="true" className="h-3.5 w-3.5" />
            </button>
          ))}
          <button
            type="button"
            onClick={() => onChange(NO_FILTERS)}
            className="ml-auto min-h-8 text-sm font-semibold text-brand-800 underline-offset-2 hover:underline"
          >
            Clear all
          </button>
        </div>
      )}
    </div>
  );
}
