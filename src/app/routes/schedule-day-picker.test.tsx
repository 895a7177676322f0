import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { rpc } from '@/testing/supabase-mocks';
import type { ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { comingDays } from '@/features/booking/components/schedule-days';
import { ScheduleRoute } from './schedule';

// /schedule's day chips narrow the timetable to one day, kept in the URL (?day=).

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

const days = comingDays(new Date());
const PER_DAY = 6;

/** Six classes a day for ten days from today (noon UTC is the same day in London), in start order. */
const timetable: ScheduleClass[] = days.slice(0, 10).flatMap((day) =>
  Array.from({ length: PER_DAY }, (_, i) =>
    makeScheduleClass({
      id: `00000000-0000-4000-8000-${String(day.offset * PER_DAY + i).padStart(12, '0')}`,
      name: `${day.name === 'Today' || day.name === 'Tomorrow' ? day.name : day.key} class ${i + 1}`,
      start_time: `${day.key}T${String(8 + i).padStart(2, '0')}:00:00Z`,
    }),
  ),
);

let asked: Record<string, unknown>[] = [];
beforeEach(() => {
  asked = [];
  server.use(
    rpc('my_waitlist', () => []),
    scheduleHandler((args) => {
      asked.push(args);
      const offset = args.p_offset as number;
      const limit = args.p_limit as number;
      // The server's own day filter: today and tomorrow in London.
      const rows =
        args.p_day === 'today'
          ? timetable.filter((c) => c.start_time.startsWith(days[0]!.key))
          : args.p_day === 'tomorrow'
            ? timetable.filter((c) => c.start_time.startsWith(days[1]!.key))
            : timetable;
      return rows.slice(offset, offset + limit);
    }),
  );
});

function renderSchedule(url = '/schedule') {
  const user = userEvent.setup();
  const view = renderApp(url, { routes: [{ path: '/schedule', element: <ScheduleRoute /> }] });
  return { user, ...view };
}

const picker = () => screen.getByRole('toolbar', { name: 'Choose a day' });
const chip = (name: string | RegExp) => within(picker()).getByRole('button', { name });
const articles = () => screen.getAllByRole('article').map((a) => within(a).getByRole('heading', { level: 3 }).textContent);

describe('/schedule day picker', () => {
  it('offers every day and the next two weeks, "All days" pressed, with the whole list a page at a time', async () => {
    renderSchedule();
    await screen.findByRole('article', { name: 'Today class 1' });
    const buttons = within(picker()).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['All days', ...days.map((d) => `${d.name} ${d.date}`)]);
    expect(chip('All days')).toHaveAttribute('aria-pressed', 'true');
    expect(buttons.filter((b) => b.getAttribute('aria-pressed') === 'true')).toHaveLength(1);
    expect(screen.getAllByRole('article')).toHaveLength(24);
    expect(screen.getByRole('button', { name: 'Show more' })).toBeInTheDocument();
    expect(asked).toEqual([expect.objectContaining({ p_day: 'all', p_offset: 0 })]);
  });

  it('Today asks the server for today’s classes only and puts the day in the URL', async () => {
    const { user, router } = renderSchedule();
    await screen.findByRole('article', { name: 'Today class 1' });
    await user.click(chip(`Today ${days[0]!.date}`));
    expect(router.state.location.search).toBe(`?day=${days[0]!.key}`);
    expect(chip(`Today ${days[0]!.date}`)).toHaveAttribute('aria-pressed', 'true');
    expect(chip('All days')).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(articles()).toHaveLength(PER_DAY));
    expect(articles().every((name) => name?.startsWith('Today'))).toBe(true);
    expect(asked.at(-1)).toMatchObject({ p_day: 'today', p_offset: 0 });
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('a later day reads the upcoming classes only until that day has passed, and shows that day alone', async () => {
    const day = days[4]!;
    renderSchedule(`/schedule?day=${day.key}`);
    await screen.findByRole('article', { name: `${day.key} class 1` });
    expect(chip(`${day.name} ${day.date}`)).toHaveAttribute('aria-pressed', 'true');
    expect(articles()).toEqual(Array.from({ length: PER_DAY }, (_, i) => `${day.key} class ${i + 1}`));
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toHaveLength(1);
    // Days 0-3 fill the first page, day 4 ends inside the second: two pages read, not the ten days.
    expect(asked.map((a) => [a.p_day, a.p_offset])).toEqual([
      ['all', 0],
      ['all', 24],
    ]);
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says when a day has no classes, and Show all days goes back to every day', async () => {
    const empty = days[12]!;
    const { user, router } = renderSchedule(`/schedule?day=${empty.key}`);
    expect(await screen.findByText(`No classes on ${empty.heading}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all days' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('article', { name: 'Today class 1' })).toBeInTheDocument();
    expect(chip('All days')).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows every day for a day it does not offer, and says so in the URL', async () => {
    const { router } = renderSchedule('/schedule?day=2001-01-01');
    await screen.findByRole('article', { name: 'Today class 1' });
    expect(chip('All days')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('is one Tab stop; the arrow keys move along the chips and Enter picks one', async () => {
    const { user, router } = renderSchedule();
    await screen.findByRole('article', { name: 'Today class 1' });
    const all = chip('All days');
    const tomorrow = chip(`Tomorrow ${days[1]!.date}`);
    expect(
      within(picker())
        .getAllByRole('button')
        .filter((b) => b.tabIndex === 0),
    ).toEqual([all]);
    all.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(tomorrow).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(router.state.location.search).toBe(`?day=${days[1]!.key}`);
    expect(tomorrow).toHaveAttribute('aria-pressed', 'true');
    expect(tomorrow).toHaveFocus();
    await waitFor(() => expect(articles().every((name) => name?.startsWith('Tomorrow'))).toBe(true));
    expect(asked.at(-1)).toMatchObject({ p_day: 'tomorrow' });
    await user.keyboard('{End}');
    expect(chip(`${days.at(-1)!.name} ${days.at(-1)!.date}`)).toHaveFocus();
    await user.keyboard('{Home}');
    expect(all).toHaveFocus();
  });
});
