import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { Database, SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, type TestUser } from './support/fixtures.ts';
import type { Database as Schema } from '../../src/lib/database.types.ts';

type ScheduleClass = Schema['public']['CompositeTypes']['schedule_class'];

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const scheduleSql = `select * from public.class_schedule(p_search => $1, p_day => $2, p_trainer => $3, p_premium => $4, p_limit => $5, p_offset => $6, p_class_id => $7)`;
interface Filters {
  search?: string;
  day?: string;
  trainer?: string;
  premium?: boolean;
  limit?: number;
  offset?: number;
  classId?: string;
}
const params = (f: Filters) => [
  f.search ?? null,
  f.day ?? 'all',
  f.trainer ?? null,
  f.premium ?? null,
  f.limit ?? 200,
  f.offset ?? 0,
  f.classId ?? null,
];

function schedule(user: TestUser | null, filters: Filters = {}) {
  const run = async (tx: SqlExecutor) => (await tx.query<ScheduleClass>(scheduleSql, params(filters))).rows;
  return user ? asUser(db, user.claims, run) : asAnon(db, run);
}
const facts = async (user: TestUser | null, classId: string) => (await schedule(user, { classId }))[0]!;

async function bookAs(user: TestUser, classId: string): Promise<{ ok: true; status: string } | { ok: false; hint: string }> {
  try {
    const { rows } = await asUser(db, user.claims, (tx) =>
      tx.query<{ r: { status: string } }>('select to_json(public.book_class($1)) as r', [classId]),
    );
    return { ok: true, status: rows[0]!.r.status };
  } catch (error) {
    return { ok: false, hint: (error as { hint: string }).hint };
  }
}

describe('class_schedule: search and filters across every upcoming class', () => {
  it('finds a class three weeks ahead by class or trainer name, wildcards literal', async () => {
    const tag = `Sched${Date.now()}`;
    const far = await createClass(db, { name: `${tag} Kettlebells`, startsIn: '21 days' });
    await createClass(db, { name: `${tag} Past`, startsIn: '-1 day' });
    const found = await schedule(null, { search: tag.toLowerCase() });
    expect(found.map((c) => c.id)).toEqual([far]);
    expect(await schedule(null, { search: '%' })).toEqual([]);
    expect(await schedule(null, { search: `${tag}_Kettlebells` })).toEqual([]);
    await db.query(`update public.classes set trainer = $2 where id = $1`, [far, `Coach ${tag}`]);
    expect((await schedule(null, { search: `coach ${tag}` })).map((c) => c.id)).toEqual([far]);
  });

  it('counts every match in the summary tiles, not a loaded page', async () => {
    const tag = `Tiles${Date.now()}`;
    for (const days of ['1 day', '9 days', '16 days']) await createClass(db, { name: `${tag} HIIT`, startsIn: days, capacity: 4 });
    const page = await schedule(null, { search: tag, limit: 1 });
    expect(page).toHaveLength(1);
    const { rows } = await asAnon(db, (tx) =>
      tx.query<{ total_classes: number; available_spots: number; instructors: number }>(
        'select * from public.class_schedule_summary(p_search => $1)',
        [tag],
      ),
    );
    expect(rows[0]).toMatchObject({ total_classes: 3, available_spots: 12, instructors: 1 });
    const second = await schedule(null, { search: tag, limit: 1, offset: 1 });
    expect(second[0]!.id).not.toBe(page[0]!.id);
  });

  it('filters today / tomorrow in London time and by type and trainer', async () => {
    const { rows } = await db.query<{ today: string }>(`select (now() at time zone 'Europe/London')::date::text as today`);
    const tag = `Day${Date.now()}`;
    // 23:30 London tomorrow: still "tomorrow" whatever UTC says.
    const late = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, capacity, is_premium)
       values ($1, (($2::date + 1)::text || ' 23:30')::timestamp at time zone 'Europe/London', 'Coach Late', 5, true) returning id`,
      [`${tag} Late`, rows[0]!.today],
    );
    expect((await schedule(null, { search: tag, day: 'tomorrow' })).map((c) => c.id)).toEqual([late.rows[0]!.id]);
    expect(await schedule(null, { search: tag, day: 'today' })).toEqual([]);
    expect(await schedule(null, { search: tag, premium: false })).toEqual([]);
    expect(await schedule(null, { search: tag, trainer: 'Coach Late', premium: true })).toHaveLength(1);
    await expect(schedule(null, { day: 'yesterday' })).rejects.toMatchObject({ hint: 'invalid_filter' });
  });
});

describe('schedule_matches: London days and weeks (the filters the screens send)', () => {
  // Sunday 26 Oct 2025, the day BST ends; 12:00 UTC = 12:00 GMT. Weeks start on Sunday.
  const now = '2025-10-26T12:00:00Z';
  const starts: Record<string, string> = {
    'Late Sat': '2025-10-25T22:30:00Z', // 23:30 BST Saturday
    'Early Sun': '2025-10-25T23:30:00Z', // 00:30 BST Sunday
    'Late Sun': '2025-10-26T23:30:00Z', // 23:30 GMT Sunday
    Mon: '2025-10-27T00:00:00Z',
    Sat: '2025-11-01T23:59:00Z', // 23:59 GMT Saturday
    'Next Sun': '2025-11-02T00:00:00Z',
  };
  async function matching(day: string, at = now) {
    const tag = `Dst${Date.now()}${Math.random()}`;
    for (const [name, start] of Object.entries(starts)) {
      await db.query(`insert into public.classes (name, start_time, trainer) values ($1, $2, $3)`, [name, start, tag]);
    }
    try {
      const { rows } = await db.query<{ name: string }>(
        `select c.name from public.classes c where c.trainer = $1 and private.schedule_matches(c, $2, null, $3, null, null) order by c.start_time`,
        [tag, at, day],
      );
      return rows.map((r) => r.name);
    } finally {
      await db.query('delete from public.classes where trainer = $1', [tag]);
    }
  }

  it('today is the London day, 25 hours long when the clocks go back; tomorrow starts at London midnight', async () => {
    expect(await matching('today', '2025-10-25T23:00:00Z')).toEqual(['Early Sun', 'Late Sun']);
    expect(await matching('tomorrow')).toEqual(['Mon']);
  });

  it('this week runs to Saturday', async () => {
    expect(await matching('week')).toEqual(['Late Sun', 'Mon', 'Sat']);
  });
});

describe('class_schedule: the caller facts', () => {
  it('does not lock a premium class for a trial member, and locks it for standard with the opening time', async () => {
    const classId = await createClass(db, { is_premium: true, startsIn: '10 days', unlock_for_standard: '3 days' });
    const trial = await createUser(db, 'sf-trial', { membership_tier: 'trial' });
    const standard = await createUser(db, 'sf-std', { membership_tier: 'standard' });
    expect(await facts(trial, classId)).toMatchObject({ bookable: true, refusal: null, unlocks_at: null, booking_type: 'trial' });
    const std = await facts(standard, classId);
    expect(std).toMatchObject({ bookable: false, refusal: 'class_locked' });
    const { rows } = await db.query<{ at: Date }>(`select start_time - interval '3 days' as at from public.classes where id = $1`, [
      classId,
    ]);
    expect(new Date(std.unlocks_at!).getTime()).toBe(rows[0]!.at.getTime());
    expect(await facts(null, classId)).toMatchObject({ bookable: false, refusal: 'class_locked' });
  });

  it('tells a guest to sign in and a payg member with the trial used that payment is needed', async () => {
    const classId = await createClass(db, { price_payg: 12 });
    expect(await facts(null, classId)).toMatchObject({ bookable: false, refusal: 'not_authenticated', my_booking_id: null });
    const payg = await createUser(db, 'sf-payg', { membership_tier: 'payg', has_used_trial: true });
    expect(await facts(payg, classId)).toMatchObject({ bookable: true, booking_type: 'payg', needs_payment: true, price_payg: '12.00' });
  });

  it("shows the caller's booking, late-cancel time and waitlist place", async () => {
    const classId = await createClass(db, { capacity: 1, startsIn: '3 days' });
    const [a, b] = [
      await createUser(db, 'sf-a', { membership_tier: 'premium' }),
      await createUser(db, 'sf-b', { membership_tier: 'premium' }),
    ];
    await bookAs(a, classId);
    const mine = await facts(a, classId);
    expect(mine).toMatchObject({ refusal: 'already_booked', my_payment_status: 'completed', can_join_waitlist: false });
    expect(mine.my_booking_id).not.toBeNull();
    const { rows } = await db.query<{ at: Date }>(`select start_time - interval '12 hours' as at from public.classes where id = $1`, [
      classId,
    ]);
    expect(new Date(mine.late_cancel_from!).getTime()).toBe(rows[0]!.at.getTime());
    expect(await facts(b, classId)).toMatchObject({ refusal: 'class_full', can_join_waitlist: true, waitlist_size: 0 });
    await asUser(db, b.claims, (tx) => tx.query('select public.join_waitlist($1)', [classId]));
    expect(await facts(b, classId)).toMatchObject({ my_waitlist_position: 1, waitlist_size: 1, waitlist_refusal: 'already_waitlisted' });
  });
});

describe('class_schedule agrees with book_class (parity)', () => {
  it('is bookable exactly when book_class books, and names the refusal book_class gives', async () => {
    const members = await Promise.all(
      (
        [
          ['trial', false],
          ['payg', false],
          ['payg', true],
          ['standard', true],
          ['premium', true],
        ] as const
      ).map(([tier, used], i) => createUser(db, `parity-${i}`, { membership_tier: tier, has_used_trial: used })),
    );
    const classes = [
      await createClass(db, { startsIn: '2 days' }),
      await createClass(db, { startsIn: '2 days', price_payg: null }),
      await createClass(db, { startsIn: '10 days', is_premium: true }),
      await createClass(db, { startsIn: '1 day', is_premium: true }),
      await createClass(db, { startsIn: '2 days', capacity: 1 }),
      await createClass(db, { startsIn: '-1 hour' }),
    ];
    const outcomes: string[] = [];
    for (const classId of classes) {
      for (const member of members) {
        const before = await facts(member, classId);
        const result = await bookAs(member, classId);
        const expected = result.ok ? (result.status === 'payment_required' ? 'payment' : 'booked') : result.hint;
        const said = before.bookable ? (before.needs_payment ? 'payment' : 'booked') : before.refusal;
        outcomes.push(`${classId.slice(0, 4)} ${member.email.split('-')[1]}: ${said} / ${expected}`);
        expect(said, `${member.email} on ${classId}`).toBe(expected);
      }
    }
    // The grid covers every outcome the rules have.
    expect(new Set(outcomes.map((o) => o.split(' / ')[1]))).toEqual(
      new Set(['booked', 'payment', 'class_locked', 'class_full', 'class_started']),
    );
  });
});
