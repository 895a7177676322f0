import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { unique } from '../support/names';
import { bookAs, createClass, rest } from '../support/rest';

// Issue 30, decision 0023: a waitlist promotion reaches a member's phone as a notification.
//
// Chromium subscribes to pushes through its vendor's push service, which this machine cannot
// reach; so the member's device is the local push service's browser-less client (its keys stay
// in the stack), saved for the member as the Edit Profile card saves a browser's subscription.
// The stack's sender encrypts the push for that device and posts it there, where it is decrypted;
// that payload is then delivered to the page's real service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage), as a push service would deliver it, and the worker shows it.

type DecryptedPush = { subscriptionId: string; payload: string; receivedAt: string };

/** The app's worker as DevTools knows it (its registration id), to deliver a push message to. */
async function appWorker(page: Page, origin: string): Promise<{ send: (data: string) => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(`${origin}/`), { timeout: 10_000 }).toBeDefined();
  const registrationId = registrations.get(`${origin}/`)!;
  return {
    send: async (data) => {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data });
    },
  };
}

test.describe('pushes on a member’s phone', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'a phone’s notifications: one width is enough');
  });

  test('with notifications allowed, a waitlist promotion shows a notification within seconds of another member cancelling', async ({
    page,
    context,
    stack,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    await context.grantPermissions(['notifications'], { origin });
    const cls = await createClass(stack, unique('Push Breakfast Club'), 2, 1, 10);
    const held = await bookAs(stack, ACCOUNTS.standard, cls.id);
    expect(held.booking_id, JSON.stringify(held)).toBeTruthy();

    await signInAs(page, stack, ACCOUNTS.premium);
    await page.goto('/edit-profile');
    // The worker runs on members' pages; the card offers this browser (permission granted, no subscription yet).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const card = page.getByRole('heading', { name: 'Notifications on your phone' }).locator('..');
    await expect(card.getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();
    await expect(card.getByRole('switch', { name: 'A waitlist spot opens for me' })).toBeChecked();
    expect(formatViolations(await runAxe(page)), 'axe on Edit Profile with the notifications card').toBe('');

    // The member's device: a subscription of the local push service, saved for them.
    const device = (await (await fetch(`${stack.url}/push/v1/subscriptions`, { method: 'POST' })).json()) as {
      id: string;
      endpoint: string;
      keys: { p256dh: string; auth: string };
    };
    const premium = await authHeaders(stack, ACCOUNTS.premium);
    await rest(
      stack,
      'POST',
      '/rest/v1/rpc/save_push_subscription',
      { p_endpoint: device.endpoint, p_p256dh: device.keys.p256dh, p_auth: device.keys.auth, p_device: 'Journey phone' },
      premium,
    );
    await rest(stack, 'POST', '/rest/v1/rpc/join_waitlist', { p_class_id: cls.id }, premium);

    // Another member cancels: the database promotes the premium member and queues the push.
    const cancelledAt = Date.now();
    await rest(
      stack,
      'POST',
      '/rest/v1/rpc/cancel_booking',
      { p_booking_id: held.booking_id },
      await authHeaders(stack, ACCOUNTS.standard),
    );
    let push: DecryptedPush | undefined;
    await expect
      .poll(
        async () => {
          const received = (await (await fetch(`${stack.url}/push.json`)).json()) as DecryptedPush[];
          push = received.find((p) => p.subscriptionId === device.id);
          return push !== undefined;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const secondsToDevice = (Date.parse(push!.receivedAt) - cancelledAt) / 1000;
    test.info().annotations.push({ type: 'push delivered after', description: `${secondsToDevice.toFixed(2)} s` });
    expect(secondsToDevice).toBeLessThan(5);
    expect(JSON.parse(push!.payload)).toMatchObject({
      title: 'A spot opened: you are booked',
      path: '/mybookings',
      kind: 'waitlist_promoted',
      tag: `class:${cls.id}`,
    });

    // The same payload, delivered to the page's worker as the push service would: it is shown.
    const worker = await appWorker(page, origin);
    await worker.send(push!.payload);
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        const notifications = await registration.getNotifications();
        return notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      });
    await expect.poll(shown, { timeout: 10_000 }).toEqual([
      {
        title: 'A spot opened: you are booked',
        body: expect.stringContaining(`${cls.name} with Coach E2E, `) as unknown,
        tag: `class:${cls.id}`,
        data: { path: '/mybookings', kind: 'waitlist_promoted' },
      },
    ]);
  });
});
