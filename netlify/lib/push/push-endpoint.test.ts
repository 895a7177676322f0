import { describe, expect, it } from 'vitest';
import { loopbackPushesAllowed, pushEndpointAllowed } from './push-endpoint';

// The sender's copy of the database's push endpoint rule (supabase/schemas/20_push.sql); the
// database test push-notifications.test.ts checks the two agree address by address.

describe('pushEndpointAllowed', () => {
  it('allows the browsers’ push services only, and loopback only on the local stack', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ]) {
      expect(pushEndpointAllowed(endpoint, { loopback: false }), endpoint).toBe(true);
    }
    for (const endpoint of [
      'https://example.com/push',
      'https://fcm.googleapis.com.evil.example/x',
      'https://fcm.googleapis.com@evil.example/x',
      'https://fcm.googleapis.com:8443/x',
      'https://fcm.googleapis.com',
      'http://fcm.googleapis.com/x',
      'https://a.b.notify.windows.com.evil.example/x',
      ' https://fcm.googleapis.com/x',
      `https://fcm.googleapis.com/${'x'.repeat(2000)}`,
    ]) {
      expect(pushEndpointAllowed(endpoint, { loopback: true }), endpoint).toBe(false);
    }
    for (const endpoint of ['http://127.0.0.1:54321/push/v1/send/abc', 'http://localhost/push', 'https://127.0.0.1:8443/x']) {
      expect(pushEndpointAllowed(endpoint, { loopback: false }), endpoint).toBe(false);
      expect(pushEndpointAllowed(endpoint, { loopback: true }), endpoint).toBe(true);
    }
    expect(pushEndpointAllowed('http://127.0.0.1.evil.example/x', { loopback: true })).toBe(false);
  });

  it('allows loopback for pushes from a database on loopback (the local stack), never a hosted project', () => {
    expect(loopbackPushesAllowed('http://127.0.0.1:54321/rest/v1')).toBe(true);
    expect(loopbackPushesAllowed('http://localhost:54321')).toBe(true);
    expect(loopbackPushesAllowed('https://abcdefgh.supabase.co/rest/v1')).toBe(false);
    expect(loopbackPushesAllowed('')).toBe(false);
  });
});
