import { describe, expect, it } from 'vitest';
import { rpcError, SERVICE_KEY, setUpFakeSupabase } from '../tests/fake-supabase';
import unsubscribe from './unsubscribe';

// The endpoint of reminder emails' List-Unsubscribe header. What the token does in the database
// (only its member, bad tokens change nothing) is tested in supabase/tests/email-delivery.test.ts.
const { fake, stubEnv } = setUpFakeSupabase();
const TOKEN = 'a'.repeat(64);
const url = (token: string) => `https://studio.example/.netlify/functions/unsubscribe?token=${token}`;

describe('unsubscribe', () => {
  it('asks before changing anything on GET (mail scanners follow links)', async () => {
    stubEnv();
    const res = await unsubscribe(new Request(url(TOKEN)));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Stop reminder emails?');
    expect(html).toContain(`<form method="post" action="?token=${TOKEN}">`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(fake.rpcCalls).toEqual([]);
  });

  it('turns reminders off on the one-click POST (RFC 8058) as the service role', async () => {
    stubEnv();
    fake.answerRpc('unsubscribe_reminders', { email: 'member@example.test', class_reminders: false });
    const res = await unsubscribe(
      new Request(url(TOKEN), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Reminder emails are off');
    expect(html).toContain("We won't send reminder emails to member@example.test any more.");
    expect(html).toContain('href="https://studio.example/edit-profile"');
    expect(fake.calls('unsubscribe_reminders')).toEqual([
      { fn: 'unsubscribe_reminders', args: { p_token: TOKEN }, authorization: `Bearer ${SERVICE_KEY}` },
    ]);
  });

  it("a marketing email's link (list=win_back) asks first, then turns off only marketing", async () => {
    stubEnv();
    const get = await unsubscribe(new Request(`${url(TOKEN)}&list=win_back`));
    const page = await get.text();
    expect(page).toContain('Stop these emails?');
    expect(page).toContain(`<form method="post" action="?token=${TOKEN}&amp;list=win_back">`);
    expect(fake.rpcCalls).toEqual([]);
    fake.answerRpc('unsubscribe_win_back', 'member@example.test');
    const post = await unsubscribe(new Request(`${url(TOKEN)}&list=win_back`, { method: 'POST', body: 'List-Unsubscribe=One-Click' }));
    expect(post.status).toBe(200);
    expect(await post.text()).toContain("We won't send member@example.test any more news, offers or emails inviting you back.");
    expect(fake.rpcCalls.map((c) => c.fn)).toEqual(['unsubscribe_win_back']);
  });

  it('says a bad link is not valid and changes nothing', async () => {
    stubEnv();
    for (const bad of ['', 'short', `${TOKEN}0`, 'A'.repeat(64), `${'a'.repeat(63)}'`]) {
      const res = await unsubscribe(new Request(url(encodeURIComponent(bad)), { method: 'POST' }));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(
        'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.',
      );
    }
    expect(fake.rpcCalls).toEqual([]);

    fake.answerRpc('unsubscribe_reminders', rpcError('invalid_unsubscribe_token', 'This unsubscribe link is not valid.', 'P0002'), 400);
    const unknown = await unsubscribe(new Request(url('b'.repeat(64)), { method: 'POST' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This unsubscribe link is not valid.');
  });

  it('refuses other methods', async () => {
    expect((await unsubscribe(new Request(url(TOKEN), { method: 'DELETE' }))).status).toBe(405);
  });
});
