import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { NO_EMBED_FILTERS } from './embed-filters';
import { BOOK_PATH, fetchEmbedClasses, renderEmbed, renderEmbedError, SCHEDULE_PATH, type EmbedClass } from './schedule-embed';

// The embeddable timetable (decision 0089): the public timetable, read as a visitor, for two weeks;
// "Book" opens the class on the studio's site in a new tab.

const now = new Date('2031-10-06T08:00:00Z'); // Monday 6 October 2031, 9:00 AM London
const at = (days: number, hour: number) => new Date(Date.UTC(2031, 9, 6 + days, hour - 1)).toISOString();
const row = (id: string, start: string, extra: Partial<EmbedClass> = {}) => ({
  id,
  name: 'Breakfast Club',
  start_time: start,
  duration: 45,
  trainer: 'Coach Alex',
  spots_left: 4,
  is_premium: false,
  location: 'Example Community Hall, 1 Example Street',
  bookable: false,
  ...extra,
});
const api = { restUrl: 'https://finerfitness.example/rest/v1', anonKey: 'anon-key' };
const answering = (body: unknown, status = 200) =>
  vi.fn<typeof fetch>(() =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );

describe('reading the timetable', () => {
  it('asks class_schedule as a visitor with the filters, and keeps two weeks of the chosen weekdays', async () => {
    const fetchImpl = answering([row('mon', at(0, 18)), row('tue', at(1, 18)), row('wed', at(2, 18)), row('later', at(15, 18))]);
    const classes = await fetchEmbedClasses(
      { coach: 'Coach Alex', type: 'premium', days: ['mon', 'wed'], search: 'club' },
      api,
      now,
      fetchImpl,
    );
    expect(classes.map((c) => c.id)).toEqual(['mon', 'wed']);
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('https://finerfitness.example/rest/v1/rpc/class_schedule');
    expect(init!.headers).toMatchObject({ apikey: 'anon-key', Authorization: 'Bearer anon-key' });
    expect(JSON.parse(init!.body as string)).toEqual({
      p_search: 'club',
      p_day: 'all',
      p_trainer: 'Coach Alex',
      p_premium: true,
      p_limit: 200,
      p_offset: 0,
    });
  });

  it('refuses an answer that is not the timetable', async () => {
    await expect(fetchEmbedClasses(NO_EMBED_FILTERS, api, now, answering({ message: 'nope' }, 500))).rejects.toThrow('500');
    await expect(fetchEmbedClasses(NO_EMBED_FILTERS, api, now, answering([{ id: 1 }]))).rejects.toThrow('unexpected');
  });
});

describe('the frame', () => {
  it('lists the classes by London day, each with a Book link to the studio’s site in a new tab', () => {
    document.body.innerHTML = '<main id="root" aria-busy="true"></main>';
    const root = document.getElementById('root')!;
    renderEmbed(
      root,
      [
        { ...row('a', at(0, 18)), location: null },
        { ...row('b', at(0, 19), { name: 'Yoga', is_premium: true, spots_left: 0 }) },
        { ...row('c', at(1, 7)) },
      ],
      'https://finerfitness.example',
      'Finer Fitness',
    );
    expect(root).not.toHaveAttribute('aria-busy');
    expect(screen.getByRole('heading', { level: 1, name: 'Finer Fitness timetable' })).toBeInTheDocument();
    const days = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(days).toEqual(['Monday 6 October', 'Tuesday 7 October']);
    const book = screen.getByRole('link', { name: 'Book Breakfast Club, Monday 6 October 6:00 pm (opens Finer Fitness in a new tab)' });
    expect(book).toHaveAttribute('href', 'https://finerfitness.example/book?classId=a');
    expect(book).toHaveAttribute('target', '_blank');
    expect(book).toHaveAttribute('rel', 'noopener');
    const full = screen.getByRole('link', { name: /^Join waitlist Yoga/ });
    expect(within(full.closest('li')!).getByText('Yoga (Premium)')).toBeInTheDocument();
    expect(within(full.closest('li')!).getByText(/Full: join the waitlist/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Full timetable on Finer Fitness' })).toHaveAttribute(
      'href',
      'https://finerfitness.example/schedule',
    );
  });

  it('says so when nothing matches, or when the timetable cannot be read', () => {
    document.body.innerHTML = '<main id="root"></main>';
    const root = document.getElementById('root')!;
    renderEmbed(root, [], 'https://finerfitness.example', 'Finer Fitness');
    expect(screen.getByText('No classes match in the next two weeks.')).toBeInTheDocument();
    renderEmbedError(root, 'https://finerfitness.example', 'Finer Fitness');
    expect(screen.getByRole('alert')).toHaveTextContent('The timetable could not be loaded just now. See it on Finer Fitness');
  });

  it('links where the app’s routes are', () => {
    expect(BOOK_PATH('a b')).toBe(paths.book.href('a b'));
    expect(SCHEDULE_PATH).toBe(paths.schedule);
  });
});
