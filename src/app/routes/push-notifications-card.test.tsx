import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

const ENDPOINT = 'https://push.example.test/send/abc';
const KEYS = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
// A VAPID public key as web-push makes them (65 bytes, base64url).
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

function setup(stored: Record<string, unknown> | null = null) {
  const signed = signInAs({ membership_tier: 'standard' });
  const saved: Record<string, unknown>[] = [];
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    ...preferencesHandlers(),
    restGet('push_preferences', () => (stored ? [stored] : [])),
    rpc('set_push_preferences', ({ args }) => {
      saved.push(args);
      return {
        member_id: signed.member.id,
        reminder_minutes: args.p_reminder_minutes,
        quiet_from: typeof args.p_quiet_from === 'string' ? `${args.p_quiet_from}:00` : null,
        quiet_until: typeof args.p_quiet_until === 'string' ? `${args.p_quiet_until}:00` : null,
        updated_at: '2026-11-27T10:00:00Z',
      };
    }),
  );
  return { ...signed, saved };
}

async function card() {
  return within((await screen.findByRole('heading', { name: 'Notifications on your phone' }, { timeout: 15_000 })).closest('div')!);
}

/** A browser with a service worker and the Push API, whose permission prompt answers `answer`. */
function pushCapableBrowser(answer: NotificationPermission) {
  let subscription: { endpoint: string; toJSON(): unknown; unsubscribe: ReturnType<typeof vi.fn> } | null = null;
  const subscribe = vi.fn((options: { applicationServerKey: Uint8Array }) => {
    subscription = {
      endpoint: ENDPOINT,
      toJSON: () => ({ endpoint: ENDPOINT, keys: KEYS }),
      unsubscribe: vi.fn(() => Promise.resolve(true)),
    };
    return Promise.resolve({ ...subscription, options });
  });
  const registration = { pushManager: { getSubscription: () => Promise.resolve(subscription), subscribe } };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'default', requestPermission: vi.fn(() => Promise.resolve(answer)) });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: () => Promise.resolve(registration) },
  });
  return { subscribe, current: () => subscription };
}

describe('Notifications card on Edit Profile', { timeout: 20_000 }, () => {
  afterEach(() => {
    act(() => toast.remove());
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('shows the defaults, and saves when pushes come through set_push_preferences (which come is the grid’s)', async () => {
    const { saved } = setup();
    renderApp('/edit-profile');
    const c = await card();
    expect(await c.findByText(/This browser cannot show notifications from the studio/)).toBeInTheDocument();
    expect(c.getByText(/Choose which in Notification preferences/)).toBeInTheDocument();
    expect(c.queryByRole('switch', { name: 'A waitlist spot opens for me' })).not.toBeInTheDocument();
    const reminder = c.getByRole('combobox', { name: 'Reminder before an early class' });
    expect(reminder).toHaveDisplayValue('1 hour before');
    expect(within(reminder).queryByRole('option', { name: 'No reminder' })).not.toBeInTheDocument();
    expect(c.getByRole('switch', { name: 'Quiet hours' })).not.toBeChecked();

    await userEvent.selectOptions(reminder, '30 minutes before');
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    await userEvent.click(c.getByRole('switch', { name: 'Quiet hours' }));
    expect(await c.findByRole('combobox', { name: 'From' })).toHaveDisplayValue('10:00 PM');
    expect(c.getByRole('combobox', { name: 'Until' })).toHaveDisplayValue('7:00 AM');
    await userEvent.selectOptions(c.getByRole('combobox', { name: 'Until' }), '6:00 AM');
    await vi.waitFor(() => expect(saved).toHaveLength(3));
    expect(saved).toEqual([
      { p_reminder_minutes: 30, p_quiet_from: null, p_quiet_until: null },
      { p_reminder_minutes: 30, p_quiet_from: '22:00', p_quiet_until: '07:00' },
      { p_reminder_minutes: 30, p_quiet_from: '22:00', p_quiet_until: '06:00' },
    ]);
  });

  it('shows a stored choice: a 12-hour lead and quiet hours', async () => {
    setup({ reminder_minutes: 720, quiet_from: '21:00:00', quiet_until: '08:00:00' });
    renderApp('/edit-profile');
    const c = await card();
    expect(await c.findByRole('combobox', { name: 'Reminder before an early class' })).toHaveDisplayValue(
      '12 hours before (the evening before)',
    );
    expect(c.getByRole('combobox', { name: 'From' })).toHaveDisplayValue('9:00 PM');
    expect(c.getByRole('combobox', { name: 'Until' })).toHaveDisplayValue('8:00 AM');
  });

  it('turns this device on with the studio’s key and saves its subscription; turns it off again', async () => {
    setup();
    const browser = pushCapableBrowser('granted');
    const saves: unknown[] = [];
    const deletes: string[] = [];
    let savedEndpoint: string | null = null;
    server.use(
      http.post('*/.netlify/functions/push-key', () => HttpResponse.json({ publicKey: PUBLIC_KEY })),
      rpc('save_push_subscription', ({ args }) => {
        saves.push(args);
        savedEndpoint = String(args.p_endpoint);
        return {
          id: 'sub-1',
          member_id: 'm',
          endpoint: args.p_endpoint,
          p256dh: args.p_p256dh,
          auth: args.p_auth,
          device: args.p_device,
          created_at: '2026-11-27T10:00:00Z',
        };
      }),
      restGet('push_subscriptions', () => (savedEndpoint ? [{ id: 'sub-1' }] : [])),
      http.delete(`${REST_URL}/push_subscriptions`, ({ request }) => {
        deletes.push(new URL(request.url).searchParams.get('endpoint') ?? '');
        savedEndpoint = null;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp('/edit-profile');
    const c = await card();
    await userEvent.click(await c.findByRole('button', { name: 'Turn on notifications on this device' }));
    expect(await screen.findByText('Notifications are on for this device')).toBeInTheDocument();
    expect(c.getByText('Notifications are on for this device.')).toBeInTheDocument();
    expect(browser.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: expect.any(Uint8Array) as Uint8Array });
    expect(browser.subscribe.mock.calls[0]![0].applicationServerKey).toHaveLength(65);
    expect(saves).toEqual([
      { p_endpoint: ENDPOINT, p_p256dh: KEYS.p256dh, p_auth: KEYS.auth, p_device: expect.stringMatching(/ on /) as string },
    ]);

    await userEvent.click(c.getByRole('button', { name: 'Turn off on this device' }));
    expect(await screen.findByText('Notifications are off for this device')).toBeInTheDocument();
    expect(deletes).toEqual([`eq.${ENDPOINT}`]);
    expect(browser.current()!.unsubscribe).toHaveBeenCalled();
  });

  it('in a private window, which refuses push though notifications are allowed, says why instead of “try again”', async () => {
    setup();
    const browser = pushCapableBrowser('granted');
    // Chromium's answer in an incognito window (the same words as a refusal, by design).
    browser.subscribe.mockImplementation(() => Promise.reject(new DOMException('Registration failed - permission denied', 'AbortError')));
    server.use(http.post('*/.netlify/functions/push-key', () => HttpResponse.json({ publicKey: PUBLIC_KEY })));
    renderApp('/edit-profile');
    const c = await card();
    await userEvent.click(await c.findByRole('button', { name: 'Turn on notifications on this device' }));
    const why = 'Notifications can’t be turned on in a private window. Open the site in a normal browser window, then turn them on there.';
    expect(await c.findByText(why)).toBeInTheDocument();
    expect(screen.queryByText(/Please try again/)).not.toBeInTheDocument();
    // Trying again can never work here: the card offers no button that would.
    expect(c.queryByRole('button', { name: 'Turn on notifications on this device' })).not.toBeInTheDocument();
  });

  it('says so when the member refuses the browser’s prompt', async () => {
    setup();
    pushCapableBrowser('denied');
    renderApp('/edit-profile');
    const c = await card();
    await userEvent.click(await c.findByRole('button', { name: 'Turn on notifications on this device' }));
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeInTheDocument();
  });
});
