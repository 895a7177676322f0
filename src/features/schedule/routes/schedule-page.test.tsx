import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, memberHandler, restGet, signInAs } from '@/testing/supabase-mocks';
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

  it('says when classes failed to load', async () => {
    server.use(restGet('classes', () => Response.json({ code: 'XX000', message: 'down' }, { status: 500 })));
    renderSchedule();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load classes');
  });
});
