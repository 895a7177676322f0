import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { controlClasses } from '@/components/ui/field-styles';
import { STUDIO } from '@/config/studio';
import { embedSnippet, NO_EMBED_FILTERS, WEEKDAY_NAMES, WEEKDAYS, type EmbedFilters, type Weekday } from '@/embed/embed-filters';
import { toast } from '@/lib/toast';
import { useTrainers } from '../api/trainers';

/**
 * The timetable other sites can show (decision 0089): choose what it shows, copy the snippet. Which
 * sites may show it is `embedOrigins` in studio.config.json (a redeploy applies it).
 */
export function EmbedSnippetPanel() {
  const trainers = useTrainers();
  const [filters, setFilters] = useState<EmbedFilters>(NO_EMBED_FILTERS);
  const snippet = embedSnippet(window.location.origin, filters, STUDIO.name);
  const toggleDay = (day: Weekday) =>
    setFilters((f) => ({ ...f, days: WEEKDAYS.filter((d) => (d === day ? !f.days.includes(d) : f.days.includes(d))) }));
  return (
    <section aria-labelledby="embed-heading" className="mt-10">
      <h2 id="embed-heading" className="mb-1 text-xl font-bold text-slate-900">
        Timetable on other sites
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Paste this snippet into another site’s page to show your timetable; “Book” opens the class here in a new tab.{' '}
        {STUDIO.embedOrigins.length ? `Sites allowed to show it: ${STUDIO.embedOrigins.join(', ')}.` : 'No site is allowed to show it yet.'}{' '}
        The allowed sites are listed under embedOrigins in studio.config.json; ask your developer to add one and redeploy.
      </p>
      <div className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-3">
        <label className="text-sm font-medium text-slate-800">
          Coach
          <select
            className={controlClasses(false)}
            value={filters.coach}
            onChange={(e) => setFilters((f) => ({ ...f, coach: e.target.value }))}
          >
            <option value="">Every coach</option>
            {(trainers.data ?? []).map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-800">
          Classes
          <select
            className={controlClasses(false)}
            value={filters.type}
            onChange={(e) => setFilters((f) => ({ ...f, type: e.target.value as EmbedFilters['type'] }))}
          >
            <option value="all">Premium and Standard</option>
            <option value="premium">Premium only</option>
            <option value="standard">Standard only</option>
          </select>
        </label>
        <label className="text-sm font-medium text-slate-800">
          Class name contains
          <input
            className={controlClasses(false)}
            value={filters.search}
            maxLength={100}
            onChange={(e) => setFilters((f) => ({ ...f, search: e.target.value }))}
          />
        </label>
        <fieldset className="sm:col-span-3">
          <legend className="text-sm font-medium text-slate-800">Days (none ticked: every day)</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {WEEKDAYS.map((d) => (
              <label key={d} className="flex items-center gap-1 text-sm">
                <input type="checkbox" checked={filters.days.includes(d)} onChange={() => toggleDay(d)} />
                {WEEKDAY_NAMES[d]}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="text-sm font-medium text-slate-800 sm:col-span-3">
          Snippet
          <textarea readOnly rows={3} className={`${controlClasses(false)} font-mono text-xs`} value={snippet} />
        </label>
        <div className="sm:col-span-3">
          <Button
            variant="outline"
            onClick={() =>
              void navigator.clipboard.writeText(snippet).then(
                () => toast.success('Snippet copied'),
                () => toast.error('Could not copy: select the snippet and copy it'),
              )
            }
          >
            Copy snippet
          </Button>
        </div>
      </div>
    </section>
  );
}
