import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDayHeading } from '@/lib/studio-time';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, memberHandler, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import type { ClassRow } from '@/lib/supabase';
import { SchedulePage } from './schedule-page';

// Live updates: msw accepts the realtime socket in jsdom, but phoenix never sees it open, so the
// subscription module is observed here and the server's UPDATE is delivered through it.
const live = vi.hoisted(() => ({ listeners: new Set<(row: ClassRow) => void>() }));
vi.mock('../api/subscribe-class-updates', () => ({
  subscribeToClassUpdates: (onUpdate: (row: ClassRow) => void) => {
    live.listeners.add(onUpdate);
    return () => live.listeners.delete(onUpdate);
  },
}));

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function renderSchedule() {
  return renderApp('/schedule', { routes: [{ path: '/schedule', element: <SchedulePage /> }] });
}

// A signed-in member's bookings and waitlist places are read once per page; a guest's never.
const memberReads = { paths: [] as string[] };
beforeEach(() => {
  memberReads.paths = [];
  server.use(
    restGet('bookings', ({ url }) => {
      memberReads.paths.push(url.pathname);
      return [];
    }),
    rpc('my_waitlist', ({ request }) => {
      memberReads.paths.push(new URL(request.url).pathname);
      return [];
    }),
  );
});

function card(name: string) {
  return screen.getByRole('article', { name });
}

describe('/schedule', () => {
  it('asks guests to sign in to book and shows premium locks and spots in words', async () => {
    let query: URLSearchParams | undefined;
    server.use(
      restGet('classes', ({ url }) => {
        query = url.searchParams;
        return [
          makeClass({ name: 'Breakfast Club', start_time: inDays(1), spots_left: 3 }),
          makeClass({ name: 'Premium Strength', start_time: inDays(6), is_premium: true, unlock_for_standard: '3 days' }),
          makeClass({ name: 'Full Class', start_time: inDays(2), spots_left: 0 }),
        ];
      }),
    );
    renderSchedule();
    expect(screen.getByRole('heading', { name: 'Class Schedule' })).toBeInTheDocument();
    await screen.findByRole('article', { name: 'Breakfast Club' });
    expect(query?.get('start_time')).toMatch(/^gte\./);
    expect(query?.get('order')).toBe('start_time.asc');

    const breakfast = card('Breakfast Club');
    expect(within(breakfast).getByText('3 spots left')).toHaveClass('bg-yellow-50');
    expect(within(breakfast).getByText('Example Community Hall')).toBeInTheDocument();
    const classId = breakfast.getAttribute('aria-labelledby')!.replace('class-', '');
    expect(within(breakfast).getByRole('link', { name: 'Sign in to book' })).toHaveAttribute('href', `/signin?redirect=${encodeURIComponent(`/book?classId=${classId}`)}`);
    // Guests see the lock: 6 days out with a 3-day window opens in about 3 days.
    expect(within(card('Premium Strength')).getByText(/^Opens in 2d 23h|^Opens in 3d 0h/)).toBeInTheDocument();
    expect(within(card('Full Class')).getByText('Fully Booked')).toBeInTheDocument();
    expect(within(card('Full Class')).queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
    expect(memberReads.paths).toEqual([]);
  });

  it('locks a premium class for a standard member but not for premium or trial members', async () => {
    const premiumClass = makeClass({ name: 'Premium Strength', start_time: inDays(6), is_premium: true });
    server.use(restGet('classes', () => [premiumClass]));

    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(memberHandler(member));
    const first = renderSchedule();
    const locked = await screen.findByRole('article', { name: 'Premium Strength' });
    expect(within(locked).getByRole('button', { name: 'Locked' })).toBeDisabled();
    expect(within(locked).getByText(/^Opens in/)).toBeInTheDocument();
    first.unmount();

    const trial = signInAs({ membership_tier: 'trial' });
    server.use(memberHandler(trial.member));
    renderSchedule();
    const open = await screen.findByRole('article', { name: 'Premium Strength' });
    expect(within(open).getByRole('link', { name: 'Book Now' })).toHaveAttribute('href', `/book?classId=${premiumClass.id}`);
    expect(within(open).queryByText(/^Opens in/)).not.toBeInTheDocument();
  });

  it('updates spots live and unsubscribes when the page closes', async () => {
    const cls = makeClass({ name: 'Breakfast Club', start_time: inDays(1), spots_left: 5 });
    server.use(restGet('classes', () => [cls]));
    const view = renderSchedule();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    expect(within(article).getByText('5 spots left')).toBeInTheDocument();
    expect(live.listeners.size).toBe(1);
    act(() => live.listeners.forEach((notify) => notify({ ...cls, spots_left: 0, current_bookings: cls.capacity })));
    expect(await within(article).findByText('Fully Booked')).toBeInTheDocument();
    view.unmount();
    expect(live.listeners.size).toBe(0);
  });

  it('reads one week at a time under day headings, with Show more for the next week', async () => {
    const timetable = [1, 3, 9, 10, 16].map((days) => makeClass({ id: `00000000-0000-4000-8000-0000000000${10 + days}`, name: `Class in ${days} days`, start_time: inDays(days) }));
    const queries: URLSearchParams[] = [];
    // Answers like PostgREST: start_time gte/lt filters, start order and limit.
    server.use(
      restGet('classes', ({ url }) => {
        const q = url.searchParams;
        queries.push(q);
        const bounds = q.getAll('start_time');
        const rows = timetable.filter((c) =>
          bounds.every((b) => (b.startsWith('gte.') ? c.start_time >= new Date(b.slice(4)).toISOString() : c.start_time < new Date(b.slice(3)).toISOString())),
        );
        return rows.slice(0, Number(q.get('limit')));
      }),
    );
    const user = userEvent.setup();
    renderSchedule();
    await screen.findByRole('article', { name: 'Class in 1 days' });
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual(['Class in 1 days', 'Class in 3 days']);
    // Cards sit under a level-2 heading per day (h1 > h2 > h3).
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([formatDayHeading(inDays(1)), formatDayHeading(inDays(3))]);
    expect(within(card('Class in 1 days')).getByRole('heading', { level: 3 })).toBeInTheDocument();
    const list = queries.find((q) => q.get('select') === '*')!;
    expect(list.getAll('start_time')).toEqual([expect.stringMatching(/^gte\./), expect.stringMatching(/^lt\./)]);
    expect(list.get('limit')).toBe('200');

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByRole('article', { name: 'Class in 10 days' });
    expect(screen.getAllByRole('article')).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByRole('article', { name: 'Class in 16 days' });
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says when classes failed to load', async () => {
    server.use(restGet('classes', () => Response.json({ code: 'XX000', message: 'down' }, { status: 500 })));
    renderSchedule();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load classes');
  });
});
