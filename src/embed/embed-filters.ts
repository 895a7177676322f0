/**
 * The embeddable timetable's filters (decision 0089), read from and written to its URL, so the
 * studio's snippet (Admin > Settings) chooses what a partner's page shows:
 * `/embed/schedule?coach=Coach%20Alex&type=premium&days=mon,wed&class=yoga`.
 * Values that are not understood are ignored (the page then shows more, never an error).
 */
export const EMBED_PATH = '/embed/schedule';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export type EmbedClassType = 'all' | 'premium' | 'standard';

export interface EmbedFilters {
  /** A coach's name exactly as the timetable shows it; '' = every coach. */
  coach: string;
  /** Premium or Standard classes; 'all' = both. */
  type: EmbedClassType;
  /** The London weekdays to show; empty = every day. */
  days: Weekday[];
  /** Part of a class's name ('yoga'); '' = every class. */
  search: string;
}

export const NO_EMBED_FILTERS: EmbedFilters = { coach: '', type: 'all', days: [], search: '' };

const isWeekday = (value: string): value is Weekday => (WEEKDAYS as readonly string[]).includes(value);

/** The filters in a query string (`location.search`). */
export function readEmbedFilters(query: string): EmbedFilters {
  const params = new URLSearchParams(query);
  const type = params.get('type');
  const days = (params.get('days') ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase().slice(0, 3))
    .filter(isWeekday);
  return {
    coach: (params.get('coach') ?? '').trim().slice(0, 200),
    type: type === 'premium' || type === 'standard' ? type : 'all',
    days: WEEKDAYS.filter((d) => days.includes(d)),
    search: (params.get('class') ?? '').trim().slice(0, 100),
  };
}

/** The page's address on the studio's site with these filters (only those that narrow anything). */
export function embedUrl(siteOrigin: string, filters: EmbedFilters): string {
  const params = new URLSearchParams();
  if (filters.coach) params.set('coach', filters.coach);
  if (filters.type !== 'all') params.set('type', filters.type);
  if (filters.days.length && filters.days.length < WEEKDAYS.length) params.set('days', filters.days.join(','));
  if (filters.search) params.set('class', filters.search);
  const query = params.toString();
  return `${siteOrigin.replace(/\/+$/, '')}${EMBED_PATH}${query ? `?${query.replaceAll('%2C', ',')}` : ''}`;
}

const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The HTML a partner pastes into their page. */
export function embedSnippet(siteOrigin: string, filters: EmbedFilters, studioName: string): string {
  return `<iframe src="${attribute(embedUrl(siteOrigin, filters))}" title="${attribute(`${studioName} timetable`)}" width="100%" height="600" style="border:0" loading="lazy"></iframe>`;
}
