import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { callFunction } from '@/lib/functions-client';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Whether this browser receives the member's pushes (decision 0023):
 * - unsupported: no service worker or Push API here (or the app's worker is not running: dev);
 * - blocked: the member refused notifications for the site in the browser;
 * - refused: notifications allowed, but the browser would not subscribe (a private window);
 * - off: not subscribed, or subscribed for another member who used this browser;
 * - on: subscribed, and the subscription is saved for this member.
 */
export type PushDeviceState = 'unsupported' | 'blocked' | 'refused' | 'off' | 'on';

/** Notifications were refused in the browser's own prompt. */
export class PushBlockedError extends Error {
  constructor() {
    super('Notifications are blocked for this site');
    this.name = 'PushBlockedError';
  }
}

/**
 * Notifications are allowed, yet the browser refuses a push subscription "permission denied": what
 * Chromium answers in an incognito window, which has no push service (deliberately in the words of
 * a refusal, so that a site cannot tell it is private). Asking again can never work in that window.
 */
export class PushRefusedError extends Error {
  constructor() {
    super('This browser window refuses push subscriptions');
    this.name = 'PushRefusedError';
  }
}

const refusesPush = (error: unknown) =>
  error instanceof DOMException &&
  (error.name === 'AbortError' || error.name === 'NotAllowedError') &&
  /permission denied/i.test(error.message);

/** A subscription as PushSubscription.toJSON() gives it: what the database stores. */
const subscriptionSchema = z.object({
  endpoint: z.url(),
  keys: z.object({ p256dh: z.string().min(1), auth: z.string().min(1) }),
});

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (
    typeof navigator === 'undefined' ||
    !('serviceWorker' in navigator) ||
    typeof window === 'undefined' ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    return null;
  }
  const registered = await navigator.serviceWorker.getRegistration('/');
  if (registered) return registered;
  // Dev and tests register no worker. In a build the app registers it after its first paint
  // (app/pwa), so a page opened straight onto Edit Profile can ask first: wait for it rather than
  // tell the member their browser cannot show notifications. A worker that never comes (storage
  // refused, a private window) leaves the answer "unsupported" after the wait.
  if (!import.meta.env.PROD) return null;
  return Promise.race([navigator.serviceWorker.ready, delay(WORKER_WAIT_MS).then(() => null)]);
}

/** How long a page waits for the app's own worker to be registered before saying there is none. */
export const WORKER_WAIT_MS = 5000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The browser and system the member would recognise in a list of devices. */
export function deviceLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'Mac'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'this device';
  return `${browser} on ${system}`;
}

export async function getPushDeviceState(): Promise<PushDeviceState> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const subscription = await reg.pushManager.getSubscription();
  if (!subscription) return 'off';
  const { data, error } = await supabase.from('push_subscriptions').select('id').eq('endpoint', subscription.endpoint).maybeSingle();
  if (error) throw error;
  return data ? 'on' : 'off';
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe() takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return true; // a browser that does not say: keep it
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((b, i) => b === wanted[i]);
}

/** Asks the browser for permission, subscribes it with the studio's key and saves it for the member. */
export async function turnPushOn(): Promise<PushDeviceState> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') throw new PushBlockedError();
  const { publicKey } = await callFunction('push-key', {});
  const key = applicationServerKey(publicKey);
  let subscription = await reg.pushManager.getSubscription();
  // Made with another key (the studio's keys were changed): its pushes would be refused.
  if (subscription && !sameKey(subscription.options?.applicationServerKey ?? null, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    // The permission was just granted: a refusal now is the window's, not the member's.
    throw refusesPush(error) ? new PushRefusedError() : error;
  }
  const { endpoint, keys } = subscriptionSchema.parse(subscription.toJSON());
  const { error } = await supabase.rpc('save_push_subscription', {
    p_endpoint: endpoint,
    p_p256dh: keys.p256dh,
    p_auth: keys.auth,
    p_device: deviceLabel(navigator.userAgent),
  });
  if (error) throw error;
  return 'on';
}

/** Forgets this browser for the member and unsubscribes it from the push service. */
export async function turnPushOff(): Promise<PushDeviceState> {
  const reg = await registration();
  const subscription = await reg?.pushManager.getSubscription();
  if (!subscription) return reg ? 'off' : 'unsupported';
  const { error } = await supabase.from('push_subscriptions').delete().eq('endpoint', subscription.endpoint);
  if (error) throw error;
  await subscription.unsubscribe();
  return 'off';
}

export const pushDeviceQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.pushDevice.mine(memberId), queryFn: getPushDeviceState });

export const usePushDevice = (memberId: string) => useQuery(pushDeviceQueryOptions(memberId));

export function useSetPushDevice(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => (on ? turnPushOn() : turnPushOff()),
    onSuccess: (state) => client.setQueryData(queryKeys.pushDevice.mine(memberId), state),
    // The card then says why in place of a button that could only fail again.
    onError: (error) => {
      if (error instanceof PushRefusedError) client.setQueryData<PushDeviceState>(queryKeys.pushDevice.mine(memberId), 'refused');
    },
  });
}
