import webpush from 'web-push';
import { describe, expect, it, vi } from 'vitest';
import { STUDIO } from '../../../src/config/studio';
import { LocalPushService } from '../../../supabase/local/push/push-service';
import type { RequeueResult } from '../email/outbox-store';
import { deliverPushes, timeToLive, type PushFetch } from './deliver-pushes';
import { readPushEnv } from './push-env';
import type { OutboxPush, PushStore } from './push-store';

// The sender against the local push service in process: the payload web-push encrypts for a
// device is what that device decrypts (RFC 8291 aes128gcm), signed with the studio's VAPID key
// (RFC 8292); a 404/410 removes the device, any other failure gives the push back.

const ORIGIN = 'http://127.0.0.1:54999';
const keys = webpush.generateVAPIDKeys();
const vapid = readPushEnv({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
const NOW = new Date('2026-12-01T05:00:00Z');

function row(sub: { endpoint: string; keys: { p256dh: string; auth: string } }, fields: Partial<OutboxPush> = {}): OutboxPush {
  return {
    id: crypto.randomUUID(),
    kind: 'waitlist_promoted',
    subscription_id: crypto.randomUUID(),
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    title: 'A spot opened: you are booked',
    body: 'Breakfast Club with Sam, Tuesday 1 December 2026, 6:00 AM.',
    path: '/mybookings',
    tag: 'class:abc',
    attempts: 1,
    expires_at: '2026-12-01T06:00:00Z',
    ...fields,
  };
}

/** A store holding the given rows; records what was given back and which devices were removed. */
function fakeStore(rows: OutboxPush[], requeueAnswer: RequeueResult = null) {
  const store = {
    requeued: [] as { id: string; error: string }[],
    removed: [] as string[],
    dequeue: () => Promise.resolve(rows.splice(0)),
    requeue(id: string, error: string): Promise<RequeueResult> {
      store.requeued.push({ id, error });
      return Promise.resolve(requeueAnswer ?? { id, status: 'retrying', attempts: 1, next_attempt_at: '2026-12-01T05:01:00Z' });
    },
    removeGone(subscriptionId: string) {
      store.removed.push(subscriptionId);
      return Promise.resolve(true);
    },
  } satisfies PushStore & Record<string, unknown>;
  return store;
}

/** A push service's answer. */
const answer = (status: number, text = '') => Promise.resolve({ status, text: () => Promise.resolve(text) });

/** fetch into the local push service, as the gateway routes /push/v1/send/<id>. */
function into(service: LocalPushService): PushFetch {
  return (url, init) => {
    const id = url.split('/').pop()!;
    const headers = Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const received = service.receive(id, headers, Buffer.from(init.body ?? new Uint8Array()));
    return answer(received.status, received.message);
  };
}

/** web-push's request headers as a server reads them (lower-case names, text values). */
const lowerHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));

describe('deliverPushes', () => {
  it('encrypts each push for its device, which decrypts the studio’s payload; signed with the VAPID key', async () => {
    const service = new LocalPushService(() => ORIGIN, keys.publicKey);
    const phone = service.subscribe();
    const pushes = [
      row(phone),
      row(phone, { kind: 'payment_failed', title: 'Payment failed: please update your card', path: '/membership', expires_at: null }),
    ];
    const store = fakeStore([...pushes]);
    const report = await deliverPushes({ store, vapid, now: NOW, allowLoopback: true, fetch: into(service) });
    expect(report).toEqual({ sent: 2, retrying: 0, failed: 0, gone: 0 });
    const received = service.list().reverse();
    expect(received.map((p) => JSON.parse(p.payload) as unknown)).toEqual([
      {
        title: 'A spot opened: you are booked',
        body: 'Breakfast Club with Sam, Tuesday 1 December 2026, 6:00 AM.',
        path: '/mybookings',
        tag: 'class:abc',
        kind: 'waitlist_promoted',
      },
      {
        title: 'Payment failed: please update your card',
        body: pushes[1]!.body,
        path: '/membership',
        tag: 'class:abc',
        kind: 'payment_failed',
      },
    ]);
    // Kept until the class starts (an hour), or a day; a class change is urgent, a payment is not.
    expect(received.map((p) => [p.ttl, p.urgency, p.sender])).toEqual([
      [3600, 'high', `mailto:${STUDIO.email}`],
      [86400, 'normal', `mailto:${STUDIO.email}`],
    ]);
  });

  it('removes a device its push service says is gone (410, 404), and gives back a push that failed otherwise', async () => {
    const service = new LocalPushService(() => ORIGIN, keys.publicKey);
    const gone = service.subscribe();
    service.unsubscribe(gone.id);
    const fine = service.subscribe();
    const goneRow = row(gone);
    const failing = row(fine);
    const store = fakeStore([goneRow, failing]);
    const statuses: Record<string, number> = { [failing.endpoint]: 503 };
    const send: PushFetch = (url, init) => (statuses[url] ? answer(statuses[url], 'busy') : into(service)(url, init));
    const warn = vi.fn();
    const report = await deliverPushes({ store, vapid, now: NOW, allowLoopback: true, fetch: send, log: { warn, error: vi.fn() } });
    expect(report).toEqual({ sent: 0, retrying: 1, failed: 0, gone: 1 });
    expect(store.removed).toEqual([goneRow.subscription_id]);
    expect(store.requeued).toEqual([{ id: failing.id, error: '503: busy' }]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('will be retried at 2026-12-01T05:01:00Z: 503: busy'));

    const notFound = fakeStore([row(fine)]);
    await deliverPushes({ store: notFound, vapid, now: NOW, allowLoopback: true, fetch: () => answer(404) });
    expect(notFound.removed).toHaveLength(1);
  });

  it('gives up after the last attempt, and a network error is a failure like any other', async () => {
    const service = new LocalPushService(() => ORIGIN, keys.publicKey);
    const store = fakeStore([row(service.subscribe())], { id: 'x', status: 'failed', attempts: 6, next_attempt_at: null });
    const error = vi.fn();
    const report = await deliverPushes({
      store,
      vapid,
      now: NOW,
      allowLoopback: true,
      fetch: () => Promise.reject(new Error('connect ECONNREFUSED')),
      log: { warn: vi.fn(), error },
    });
    expect(report).toEqual({ sent: 0, retrying: 0, failed: 1, gone: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('after 6 attempts: connect ECONNREFUSED'));
  });

  it('posts only to the browsers’ push services (the local stack’s on loopback when allowed); any other device is removed unasked', async () => {
    const service = new LocalPushService(() => ORIGIN, keys.publicKey);
    const local = service.subscribe();
    const keysOf = service.subscribe().keys;
    const fcm = row({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: keysOf });
    const elsewhere = [
      'https://studio-admin.internal/push',
      'https://fcm.googleapis.com.evil.example/x',
      'http://fcm.googleapis.com/x',
    ].map((endpoint) => row({ endpoint, keys: keysOf }));
    const loopback = row(local);
    const posted: string[] = [];
    const send: PushFetch = (url) => (posted.push(url), answer(201));
    const warn = vi.fn();

    // As deployed: the loopback device is no push service either.
    const deployed = fakeStore([fcm, ...elsewhere, loopback]);
    const report = await deliverPushes({ store: deployed, vapid, now: NOW, fetch: send, log: { warn, error: vi.fn() } });
    expect(posted).toEqual([fcm.endpoint]);
    expect(report).toEqual({ sent: 1, retrying: 0, failed: 0, gone: 4 });
    expect(deployed.removed).toEqual([...elsewhere, loopback].map((r) => r.subscription_id));
    expect(deployed.requeued).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('to studio-admin.internal: not a push service; device removed'));

    // On the local stack its own push service is posted to; the rest still is not.
    posted.length = 0;
    const onStack = fakeStore([...elsewhere, row(local)]);
    await deliverPushes({ store: onStack, vapid, now: NOW, allowLoopback: true, fetch: send, log: { warn, error: vi.fn() } });
    expect(posted).toEqual([local.endpoint]);
    expect(onStack.removed).toHaveLength(3);
  });

  it('keeps a push no longer than its class is ahead, and a day at most', () => {
    expect(timeToLive({ expires_at: '2026-12-01T05:30:00Z' }, NOW)).toBe(1800);
    expect(timeToLive({ expires_at: '2026-12-09T05:30:00Z' }, NOW)).toBe(86400);
    expect(timeToLive({ expires_at: '2026-12-01T04:00:00Z' }, NOW)).toBe(0);
  });
});

describe('the local push service', () => {
  it('refuses a push without a valid VAPID signature, signed with another pair than the subscription’s, or encrypted for another device', () => {
    const service = new LocalPushService(() => ORIGIN, keys.publicKey);
    const a = service.subscribe();
    const b = service.subscribe();
    const details = webpush.generateRequestDetails(a, 'hello', { vapidDetails: vapid, contentEncoding: 'aes128gcm' });
    const headers = lowerHeaders(details.headers);
    expect(service.receive(a.id, headers, details.body)).toEqual({ status: 201, message: 'Created' });
    expect(JSON.stringify(service.list()[0]!.payload)).toBe('"hello"');
    expect(service.receive(b.id, headers, details.body)).toMatchObject({ status: 400, message: expect.stringMatching(/does not decrypt/) });
    const other = webpush.generateVAPIDKeys();
    const forged = (headers.authorization ?? '').replace(/k=.*$/, `k=${other.publicKey}`);
    expect(service.receive(a.id, { ...headers, authorization: forged }, details.body)).toMatchObject({
      status: 400,
      message: 'the VAPID signature does not verify',
    });
    // Signed well, but with another pair than the subscription was made for (a jobs process with
    // its own keys): refused, as a vendor's push service refuses it.
    const otherPair = readPushEnv({ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: other.privateKey });
    const otherSigned = webpush.generateRequestDetails(a, 'hello', { vapidDetails: otherPair, contentEncoding: 'aes128gcm' });
    expect(service.receive(a.id, lowerHeaders(otherSigned.headers), otherSigned.body)).toEqual({
      status: 403,
      message: 'the VAPID key is not the one this subscription was made with',
    });
    const forOther = service.subscribe(other.publicKey);
    const toOther = webpush.generateRequestDetails(forOther, 'hi', { vapidDetails: otherPair, contentEncoding: 'aes128gcm' });
    expect(service.receive(forOther.id, lowerHeaders(toOther.headers), toOther.body)).toEqual({ status: 201, message: 'Created' });
    const elsewhere = new LocalPushService(() => 'http://127.0.0.1:1', keys.publicKey);
    const c = elsewhere.subscribe();
    const forC = webpush.generateRequestDetails({ ...c, endpoint: a.endpoint }, 'x', { vapidDetails: vapid });
    const cHeaders = lowerHeaders(forC.headers);
    expect(elsewhere.receive(c.id, cHeaders, forC.body)).toMatchObject({ status: 400, message: expect.stringMatching(/audience/) });
  });
});
