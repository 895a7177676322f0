import type { EmbedFilters, Weekday } from './embed-filters';

/**
 * The embeddable timetable (decision 0089): the public timetable (`class_schedule`, as a visitor
 * reads it with the anon key) for the coming two weeks, in plain DOM. No React, no supabase-js,
 * no sign-in: it is a page other sites frame, and "Book" opens the class on the studio's own site
 * in a new tab, where signing in and paying happen. It imports nothing of the app (a module shared
 * with the app would be built into the app's shell chunk, which the frame would then download):
 * the two addresses below are the app's (paths.book, paths.schedule), held equal by a test.
 */
export const BOOK_PATH = (classId: string) => `/book?classId=${encodeURIComponent(classId)}`;
export const SCHEDULE_PATH = '/schedule';

export interface EmbedClass {
  id: string;
  name: string;
  start_time: string;
  duration: number;
  trainer: string;
  spots_left: number;
  is_premium: boolean;
  location: string | null;
}

/** How far ahead the frame shows classes. */
export const EMBED_DAYS_AHEAD = 14;

const TIME_ZONE = 'Europe/London';
const weekdayOf = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, weekday: 'short' });
const dayHeading = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long' });
const clock = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: 'numeric', minute: '2-digit', hour12: true });

const londonWeekday = (at: Date) => weekdayOf.format(at).toLowerCase().slice(0, 3) as Weekday;

function isEmbedClass(row: unknown): row is EmbedClass {
  const r = row as Partial<Record<keyof EmbedClass, unknown>>;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.id === 'string' &&
    typeof r.name === 'string' &&
    typeof r.start_time === 'string' &&
    typeof r.duration === 'number' &&
    typeof r.trainer === 'string' &&
    typeof r.spots_left === 'number' &&
    typeof r.is_premium === 'boolean'
  );
}

/** The timetable's classes matching the filters, from now to EMBED_DAYS_AHEAD days ahead. */
export async function fetchEmbedClasses(
  filters: EmbedFilters,
  api: { restUrl: string; anonKey: string },
  now: Date,
  fetchImpl: typeof fetch = fetch,
): Promise<EmbedClass[]> {
  const response = await fetchImpl(`${api.restUrl}/rpc/class_schedule`, {
    method: 'POST',
    headers: { apikey: api.anonKey, Authorization: `Bearer ${api.anonKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      p_search: filters.search || null,
      p_day: 'all',
      p_trainer: filters.coach || null,
      p_premium: filters.type === 'all' ? null : filters.type === 'premium',
      p_limit: 200,
      p_offset: 0,
    }),
  });
  if (!response.ok) throw new Error(`The timetable answered ${response.status}`);
  const body: unknown = await response.json();
  if (!Array.isArray(body) || !body.every(isEmbedClass)) throw new Error('The timetable answered something unexpected');
  const until = now.getTime() + EMBED_DAYS_AHEAD * 86_400_000;
  return body
    .map((c) => ({ ...c, location: typeof c.location === 'string' ? c.location : null }))
    .filter((c) => {
      const at = new Date(c.start_time);
      return at.getTime() < until && (!filters.days.length || filters.days.includes(londonWeekday(at)));
    });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const spotsText = (spots: number) => (spots <= 0 ? 'Full: join the waitlist' : spots === 1 ? '1 spot left' : `${spots} spots left`);

/** Renders the classes into `root`, a list per London day, each with its Book link to the studio's site. */
export function renderEmbed(root: HTMLElement, classes: EmbedClass[], siteOrigin: string, studioName: string): void {
  root.replaceChildren();
  root.removeAttribute('aria-busy');
  const heading = element('h1', 'embed-title', `${studioName} timetable`);
  root.append(heading);
  if (!classes.length) {
    root.append(element('p', 'embed-empty', 'No classes match in the next two weeks.'));
  }
  let list: HTMLUListElement | null = null;
  let day = '';
  for (const c of classes) {
    const at = new Date(c.start_time);
    const thisDay = dayHeading.format(at);
    if (thisDay !== day || !list) {
      day = thisDay;
      const section = element('section', 'embed-day');
      const h2 = element('h2', 'embed-day-title', thisDay);
      list = element('ul', 'embed-list');
      section.append(h2, list);
      root.append(section);
    }
    const item = element('li', 'embed-class');
    const when = element('p', 'embed-time', `${clock.format(at)} · ${c.duration} min`);
    const name = element('p', 'embed-name', c.is_premium ? `${c.name} (Premium)` : c.name);
    const details = element('p', 'embed-details', [`with ${c.trainer}`, c.location, spotsText(c.spots_left)].filter(Boolean).join(' · '));
    const book = element('a', 'embed-book', c.spots_left > 0 ? 'Book' : 'Join waitlist');
    book.href = new URL(BOOK_PATH(c.id), siteOrigin).toString();
    book.target = '_blank';
    book.rel = 'noopener';
    book.setAttribute('aria-label', `${book.textContent} ${c.name}, ${thisDay} ${clock.format(at)} (opens ${studioName} in a new tab)`);
    item.append(when, name, details, book);
    list.append(item);
  }
  const more = element('a', 'embed-more', `Full timetable on ${studioName}`);
  more.href = new URL(SCHEDULE_PATH, siteOrigin).toString();
  more.target = '_blank';
  more.rel = 'noopener';
  root.append(more);
}

/** What the frame says when the timetable cannot be read. */
export function renderEmbedError(root: HTMLElement, siteOrigin: string, studioName: string): void {
  root.replaceChildren();
  root.removeAttribute('aria-busy');
  const message = element('p', 'embed-empty', 'The timetable could not be loaded just now. ');
  const link = element('a', 'embed-more', `See it on ${studioName}`);
  link.href = new URL(SCHEDULE_PATH, siteOrigin).toString();
  link.target = '_blank';
  link.rel = 'noopener';
  message.append(link);
  root.append(element('h1', 'embed-title', `${studioName} timetable`), message);
  root.setAttribute('role', 'alert');
}
