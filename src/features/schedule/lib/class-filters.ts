import type { ClassRow } from '@/lib/supabase';
import { isWithin, thisWeekRange, todayRange, tomorrowRange } from '@/lib/studio-time';

/** The /my-schedule filters (spec section 2): search, date, instructor, type. */
export type DateFilter = 'all' | 'today' | 'tomorrow' | 'week';
export type TypeFilter = 'all' | 'premium' | 'standard';
export type ClassFilters = { search: string; date: DateFilter; instructor: string; type: TypeFilter };

export const NO_FILTERS: ClassFilters = { search: '', date: 'all', instructor: '', type: 'all' };

export const DATE_LABELS: Record<DateFilter, string> = { all: 'All Dates', today: 'Today', tomorrow: 'Tomorrow', week: 'This Week' };
export const TYPE_LABELS: Record<TypeFilter, string> = { all: 'All Types', premium: 'Premium', standard: 'Standard' };

/** Class type labels of spec section 9. */
export function classTypeLabel(cls: Pick<ClassRow, 'is_premium'>): 'Premium' | 'Standard' {
  return cls.is_premium ? 'Premium' : 'Standard';
}

function dateRange(filter: DateFilter, now: Date) {
  if (filter === 'today') return todayRange(now);
  if (filter === 'tomorrow') return tomorrowRange(now);
  if (filter === 'week') return thisWeekRange(now);
  return null;
}

/** Day boundaries are London's, whatever the viewer's machine zone. */
export function filterClasses(classes: ClassRow[], filters: ClassFilters, now: Date): ClassRow[] {
  const query = filters.search.trim().toLowerCase();
  const range = dateRange(filters.date, now);
  return classes.filter((cls) => {
    if (query && ![cls.name, cls.trainer, cls.description ?? ''].some((text) => text.toLowerCase().includes(query))) return false;
    if (range && !isWithin(cls.start_time, range)) return false;
    if (filters.instructor && cls.trainer !== filters.instructor) return false;
    if (filters.type === 'premium' && !cls.is_premium) return false;
    if (filters.type === 'standard' && cls.is_premium) return false;
    return true;
  });
}

export type ActiveFilter = { key: keyof ClassFilters; label: string };

/** The chips of the active-filter bar. */
export function activeFilters(filters: ClassFilters): ActiveFilter[] {
  const chips: ActiveFilter[] = [];
  if (filters.search.trim()) chips.push({ key: 'search', label: `Search: "${filters.search.trim()}"` });
  if (filters.date !== 'all') chips.push({ key: 'date', label: DATE_LABELS[filters.date] });
  if (filters.instructor) chips.push({ key: 'instructor', label: filters.instructor });
  if (filters.type !== 'all') chips.push({ key: 'type', label: TYPE_LABELS[filters.type] });
  return chips;
}

export function instructorsOf(classes: ClassRow[]): string[] {
  return [...new Set(classes.map((c) => c.trainer))].sort((a, b) => a.localeCompare(b));
}

/** The four summary tiles: the timetable's totals and how many the filters show. */
export function summarize(classes: ClassRow[], shown: ClassRow[]) {
  return {
    totalClasses: classes.length,
    availableSpots: classes.reduce((sum, c) => sum + Math.max(0, c.spots_left), 0),
    instructors: instructorsOf(classes).length,
    showing: shown.length,
  };
}
