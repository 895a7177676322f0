import { expect, type Page } from '@playwright/test';
import { authHeaders } from './accounts';
import type { StackApi } from './local-stack';
import { rest } from './rest';

// Pushes in journeys (decision 0023). Chromium subscribes to pushes through its vendor's push
// service, which this machine cannot reach; so a member's device is the local push service's
// browser-less client (its keys stay in the stack), saved for the member as the Edit Profile card
// saves a browser's subscription. The stack's senders encrypt each push for that device and post
// it there, where it is decrypted; a journey then hands that payload to the page's real service
// worker through the DevTools protocol (ServiceWorker.deliverPushMessage), as a push service
// would deliver it, and the worker shows it.

/** One push the local push service received and decrypted (GET /push.json). */
export type DecryptedPush = { subscriptionId: string; payload: string; receivedAt: string };

/** A browser-less device of the local push service, saved for the member as a browser's subscription. */
export async function saveLocalDevice(stack: StackApi, email: string): Promise<{ id: string }> {
  const res = await fetch(`${stack.url}/push/v1/subscriptions`, { method: 'POST' });
  if (res.status !== 201) throw new Error(`POST /push/v1/subscriptions answered ${res.status}`);
  const device = (await res.json()) as { id: string; endpoint: string; keys: { p256dh: string; auth: string } };
  await rest(
    stack,
    'POST',
    '/rest/v1/rpc/save_push_subscription',
    { p_endpoint: device.endpoint, p_p256dh: device.keys.p256dh, p_auth: device.keys.auth, p_device: 'Journey phone' },
    await authHeaders(stack, email),
  );
  return { id: device.id };
}

/** What the local push service received for this device, oldest first. */
export async function pushesTo(stack: StackApi, deviceId: string): Promise<DecryptedPush[]> {
  const res = await fetch(`${stack.url}/push.json`);
  if (!res.ok) throw new Error(`GET /push.json answered ${res.status}`);
  return ((await res.json()) as DecryptedPush[]).filter((p) => p.subscriptionId === deviceId).reverse();
}

/** The app's worker as DevTools knows it (its registration id), to deliver a push message to. */
export async function appWorker(page: Page, origin: string): Promise<{ send: (data: string) => Promise<void> }> {
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

/** The notifications the page's worker shows now. */
export function shownNotifications(page: Page): Promise<{ title: string; body: string; tag: string; data: unknown }[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const notifications = await registration.getNotifications();
    return notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
  });
}
