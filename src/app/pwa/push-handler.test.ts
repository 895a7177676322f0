import { describe, expect, it, vi } from 'vitest';
import source from '../../../public/push-handler.js?raw';

// public/push-handler.js, the service worker's push code (decision 0023), run against a fake
// worker scope: what a push shows, and which page a click opens. The journey
// (tests/e2e/journeys/push.spec.ts) runs it in Chromium's real worker.

const ORIGIN = 'https://studio.example';
type Listener = (event: { data?: unknown; notification?: unknown; waitUntil(p: Promise<unknown>): void }) => void;

function workerScope(windows: { url: string; focus: () => Promise<unknown>; navigate?: (url: string) => Promise<unknown> }[] = []) {
  const listeners: Record<string, Listener> = {};
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => (listeners[type] = listener),
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: { matchAll: vi.fn(() => Promise.resolve(windows)), openWindow: vi.fn(() => Promise.resolve(null)) },
  };
  // The file ends by calling its body with the worker's global `self`: run as importScripts runs
  // it, a plain script, with the fake scope as `self`.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('self', source)(scope);
  async function dispatch(type: string, event: Record<string, unknown>) {
    let waited: Promise<unknown> = Promise.resolve();
    listeners[type]!({
      ...event,
      waitUntil: (p) => {
        waited = p;
      },
    });
    await waited;
  }
  return { scope, dispatch };
}

const pushData = (payload: unknown) => ({ json: () => payload, text: () => JSON.stringify(payload) });

describe('the worker’s push handler', () => {
  it('shows the push as a notification, replacing an earlier one about the same class', async () => {
    const { scope, dispatch } = workerScope();
    await dispatch('push', {
      data: pushData({
        title: 'A spot opened: you are booked',
        body: 'Breakfast Club, 6:00 AM.',
        path: '/mybookings',
        tag: 'class:1',
        kind: 'waitlist_promoted',
      }),
    });
    expect(scope.registration.showNotification).toHaveBeenCalledWith('A spot opened: you are booked', {
      body: 'Breakfast Club, 6:00 AM.',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'en-GB',
      data: { path: '/mybookings', kind: 'waitlist_promoted' },
      tag: 'class:1',
      renotify: true,
    });
  });

  it('shows the studio’s name for a push that is not the studio’s JSON', async () => {
    const { scope, dispatch } = workerScope();
    await dispatch('push', { data: { json: () => JSON.parse('not json') as unknown, text: () => 'not json' } });
    expect(scope.registration.showNotification).toHaveBeenCalledWith(
      'Finer Fitness',
      expect.objectContaining({ body: 'not json', data: { path: '/dashboard', kind: null } }),
    );
  });

  it('opens the push’s page on a click: in an open window of the app, or a new one; never another site', async () => {
    const focus = vi.fn(() => Promise.resolve());
    const navigate = vi.fn(() => Promise.resolve(null));
    const open = workerScope([{ url: `${ORIGIN}/dashboard`, focus, navigate }]);
    const close = vi.fn();
    await open.dispatch('notificationclick', { notification: { close, data: { path: '/mybookings' } } });
    expect(close).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/mybookings`);
    expect(focus).toHaveBeenCalled();

    const none = workerScope();
    await none.dispatch('notificationclick', { notification: { close, data: { path: '//evil.example/x' } } });
    expect(none.scope.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/dashboard`);
  });
});
