import type { ClassFilters, DateFilter, TypeFilter } from '../api/get-class-schedule';

/** The /my-schedule filters in words (the request module holds their schema; the server applies them). */

export const DATE_LABELS: Record<DateFilter, string> = { all: 'All Dates', today: 'Today', tomorrow: 'Tomorrow', week: 'This Week' };
export const TYPE_LABELS: Record<TypeFilter, string> = { all: 'All Types', premium: 'Premium', standard: 'Standard' };

/** Class type labels of spec section 9. */
export function classTypeLabel(cls: { is_premium: boolean }): 'Premium' | 'Standard' {
  return cls.is_premium ? 'Premium' : 'Standard';
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
