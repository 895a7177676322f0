import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../../local/db/as-user.ts';
import type { Database } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from '../support/fixtures.ts';
import { call } from './helpers.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

interface Feed {
  member_name: string | null;
  events: { booking_id: string; class_id: string; name: string; trainer: string; start_time: string; duration: number }[];
}
// Zero or one row (the function reads it with maybeSingle).
const feed = async (token: string | null) =>
  (await asServiceRole(db, (tx) => rpc<Feed[]>(tx, 'public.calendar_feed($1)', [token])))[0] ?? null;
const rotate = (u: TestUser) => call<{ calendar_token: string }>(db, u, 'public.rotate_calendar_token()');

describe('calendar feed token', () => {
  it('starts without a feed; rotating gives a long random secret the member can read back', async () => {
    const member = await createUser(db, 'cal-new', { membership_tier: 'premium' });
    const own = () =>
      asUser(
        db,
        member.claims,
        async (tx) => (await tx.query<{ calendar_token: string | null }>('select calendar_token from public.members')).rows,
      );
    expect(await own()).toEqual([{ calendar_token: null }]);
    const { calendar_token } = await rotate(member);
    expect(calendar_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await own()).toEqual([{ calendar_token }]);
    expect((await rotate(member)).calendar_token).not.toBe(calendar_token);
  });

  it('serves the member confirmed, not yet ended bookings by token', async () => {
    const member = await createUser(db, 'cal-feed', { membership_tier: 'premium' }, { full_name: 'Fay Feed' });
    const upcoming = await createClass(db, { name: 'Upcoming', startsIn: '1 day' });
    const running = await createClass(db, { name: 'Running', startsIn: '-10 minutes' }); // 45 min long
    const ended = await createClass(db, { name: 'Ended', startsIn: '-2 hours' });
    const held = await createClass(db, { name: 'Held', startsIn: '2 days' });
    for (const c of [upcoming, running, ended]) {
      await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, c]);
    }
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '5 minutes')`,
      [member.memberId, held],
    );
    const { calendar_token } = await rotate(member);
    const result = await feed(calendar_token);
    expect(result?.member_name).toBe('Fay Feed');
    expect(result?.events.map((e) => e.name)).toEqual(['Running', 'Upcoming']);
    expect(result?.events[1]).toMatchObject({ class_id: upcoming, trainer: 'Coach Test', duration: 45 });
  });

  it('stops serving a rotated or revoked token', async () => {
    const member = await createUser(db, 'cal-revoke', { membership_tier: 'premium' });
    const first = (await rotate(member)).calendar_token;
    const second = (await rotate(member)).calendar_token;
    expect(await feed(first)).toBeNull();
    expect(await feed(second)).not.toBeNull();
    expect(await call(db, member, 'public.revoke_calendar_token()')).toEqual({ calendar_token: null });
    expect(await feed(second)).toBeNull();
    expect(await feed(null)).toBeNull();
    expect(await feed('')).toBeNull();
  });

  it('keeps the feed lookup away from members and anon, and the token column read-only', async () => {
    const member = await createUser(db, 'cal-guard', { membership_tier: 'premium' });
    const { calendar_token } = await rotate(member);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.calendar_feed($1)', [calendar_token])),
      {
        code: '42501',
        message: /permission denied for function calendar_feed/,
      },
    );
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.rotate_calendar_token()')),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`update public.members set calendar_token = 'chosen-by-me-aaaaaaaaaaaaaaaaaaaaaaaaaa'`)),
      { code: '42501' },
    );
    const other = await createUser(db, 'cal-guard-other', { membership_tier: 'premium' });
    const seen = await asUser(
      db,
      other.claims,
      async (tx) => (await tx.query('select 1 from public.members where calendar_token = $1', [calendar_token])).rows,
    );
    expect(seen).toEqual([]);
  });
});
