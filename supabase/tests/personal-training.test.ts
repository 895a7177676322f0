import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Trainers are records; classes keep the trainer they had (classes.trainer is the
// trainer's name, classes.trainer_id the record).

describe('trainers', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  let member: TestUser;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'pt-admin', { is_admin: true });
    member = await createUser(db, 'pt-member', { membership_tier: 'standard' });
  });
  afterAll(async () => {
    await db.close();
  });

  it('every class names a trainer record of the same name (the class fixture still sends a name)', async () => {
    await createClass(db, { name: 'Linked' });
    const { rows } = await db.query<{ classes: number; linked: number }>(
      `select count(*)::int as classes, count(t.id)::int as linked
         from public.classes c left join public.trainers t on t.id = c.trainer_id and t.name = c.trainer`,
    );
    expect(rows[0]!.classes).toBeGreaterThan(0);
    expect(rows[0]!.linked).toBe(rows[0]!.classes);
  });

  it('a class given a trainer by name finds or records the trainer; by record takes its name; a rename follows', async () => {
    const asAdmin = (sql: string, params: unknown[] = []) =>
      asUser(db, admin.claims, (tx) => tx.query<{ id: string; trainer: string; trainer_id: string }>(sql, params));
    const byName = await asAdmin(
      `insert into public.classes (name, start_time, trainer) values ('Yoga', now() + interval '3 days', 'Coach Newcomer') returning id, trainer, trainer_id`,
    );
    const { rows: t } = await db.query<{ id: string }>(`select id from public.trainers where name = 'Coach Newcomer'`);
    expect(byName.rows[0]).toMatchObject({ trainer: 'Coach Newcomer', trainer_id: t[0]!.id });

    const { rows: kim } = await asAdmin(`insert into public.trainers (name, bio) values ('Coach Kim', 'Pilates.') returning id`);
    const byRecord = await asAdmin(
      `insert into public.classes (name, start_time, trainer, trainer_id) values ('Pilates', now() + interval '3 days', 'ignored', $1) returning id, trainer, trainer_id`,
      [kim[0]!.id],
    );
    expect(byRecord.rows[0]).toMatchObject({ trainer: 'Coach Kim', trainer_id: kim[0]!.id });

    await asAdmin(`update public.trainers set name = 'Coach Kimberley' where id = $1`, [kim[0]!.id]);
    const { rows: renamed } = await db.query('select trainer from public.classes where id = $1', [byRecord.rows[0]!.id]);
    expect(renamed).toEqual([{ trainer: 'Coach Kimberley' }]);

    // The class form still sends a name: changing it moves the class to that trainer.
    await asAdmin(`update public.classes set trainer = 'Coach Newcomer' where id = $1`, [byRecord.rows[0]!.id]);
    const { rows: moved } = await db.query<{ trainer_id: string }>('select trainer_id from public.classes where id = $1', [
      byRecord.rows[0]!.id,
    ]);
    expect(moved[0]!.trainer_id).toBe(t[0]!.id);
  });

  it('only admins write trainers; everyone reads them', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`insert into public.trainers (name) values ('Coach Sneaky')`)),
      { code: '42501' },
    );
    const updated = await asUser(db, member.claims, (tx) =>
      tx.query(`update public.trainers set bio = 'hacked' where name = 'Coach Newcomer' returning id`),
    );
    expect(updated.rows).toEqual([]);
    const read = await asUser(db, { role: 'anon' }, (tx) =>
      tx.query(`select name, bio from public.trainers where name = 'Coach Newcomer'`),
    );
    expect(read.rows).toEqual([{ name: 'Coach Newcomer', bio: '' }]);
  });
});

// Weekly availability and one-off slots published by admins become One-to-One sessions, once,
// off the group timetable. A fixed Monday in the future, before British Summer Time.
describe('one-to-one sessions from availability', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  let member: TestUser;
  let trainerId: string;
  const NOW = '2031-03-03T00:00:00Z';
  const generate = (now: string, period: string | null = '14 days') =>
    asServiceRole(db, (tx) => rpc<number>(tx, 'public.generate_one_to_one_slots($1, $2::interval)', [now, period]));
  const sessions = async () =>
    (
      await db.query<{ at: string; type: string; price: string; capacity: number; trainer: string; name: string }>(
        `select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at, type, price_payg::text as price, capacity, trainer, name
           from public.classes where trainer_id = $1 order by start_time`,
        [trainerId],
      )
    ).rows;

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'slots-admin', { is_admin: true });
    member = await createUser(db, 'slots-member', { membership_tier: 'standard' });
    const asAdmin = (sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => tx.query<{ id: string }>(sql, params));
    trainerId = (await asAdmin(`insert into public.trainers (name, bio) values ('Coach Slots', 'Strength.') returning id`)).rows[0]!.id;
    // Mondays 09:00-11:00 in hour sessions, and a one-off on Wednesday 5 March at 18:30.
    await asAdmin(
      `insert into public.trainer_availability (trainer_id, weekday, starts_at, ends_at, session_minutes) values ($1, 1, '09:00', '11:00', 60)`,
      [trainerId],
    );
    await asAdmin(`insert into public.trainer_one_off_slots (trainer_id, start_time, duration) values ($1, '2031-03-05T18:30:00Z', 45)`, [
      trainerId,
    ]);
  });
  afterAll(async () => {
    await db.close();
  });

  it('refuses a one-off session in the past, and the same one twice, each in words', async () => {
    const add = (startTime: string) =>
      asUser(db, admin.claims, (tx) =>
        tx.query(`insert into public.trainer_one_off_slots (trainer_id, start_time, duration) values ($1, $2, 45)`, [trainerId, startTime]),
      );
    const count = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from public.trainer_one_off_slots where trainer_id = $1', [trainerId]))
        .rows[0]!.n;
    const before = await count();
    await expectSqlError(add('2020-01-01T10:00:00Z'), {
      hint: 'one_off_in_past',
      message: 'That time has passed: a one-off session must be in the future',
    });
    await expectSqlError(add('2031-03-05T18:30:00Z'), {
      hint: 'one_off_exists',
      message: 'This trainer already has a one-off session at that time',
    });
    expect(await count()).toBe(before);
  });

  it('creates the period’s sessions once, at the personal-training price, and only new ones later', async () => {
    expect(await generate(NOW)).toBe(5);
    expect(await sessions()).toEqual([
      { at: '2031-03-03 09:00', type: 'One-to-One', price: '115.00', capacity: 1, trainer: 'Coach Slots', name: 'Personal Training' },
      expect.objectContaining({ at: '2031-03-03 10:00' }),
      expect.objectContaining({ at: '2031-03-05 18:30' }),
      expect.objectContaining({ at: '2031-03-10 09:00' }),
      expect.objectContaining({ at: '2031-03-10 10:00' }),
    ]);
    expect(await generate(NOW)).toBe(0);
    // A week later the period reaches one more Monday; a session already started is not made again.
    expect(await generate('2031-03-10T09:30:00Z', '8 days')).toBe(2);
    expect((await sessions()).map((s) => s.at).slice(-2)).toEqual(['2031-03-17 09:00', '2031-03-17 10:00']);
  });

  it('skips studio closure dates and keeps London wall-clock times across the clock change', async () => {
    await db.query(`insert into public.studio_closures (closed_on, reason) values ('2031-03-24', 'Hall booked')`);
    expect(await generate('2031-03-17T12:00:00Z', '15 days')).toBe(2);
    // 24 March closed; 31 March is British Summer Time: 09:00 London is 08:00 UTC.
    expect((await sessions()).map((s) => s.at).slice(-2)).toEqual(['2031-03-31 08:00', '2031-03-31 09:00']);
  });

  it('keeps One-to-One sessions off the group timetable; the booking form still reads one by id', async () => {
    const { rows } = await db.query<{ id: string }>(`select id from public.classes where trainer_id = $1 order by start_time limit 1`, [
      trainerId,
    ]);
    const listed = await asUser(db, member.claims, (tx) =>
      tx.query(`select id from public.class_schedule(p_search => 'Coach Slots', p_limit => 200)`),
    );
    expect(listed.rows).toEqual([]);
    const summary = await asUser(db, member.claims, (tx) =>
      tx.query<{ all_instructors: string[] }>(`select all_instructors from public.class_schedule_summary()`),
    );
    expect(summary.rows[0]!.all_instructors).not.toContain('Coach Slots');
    const byId = await asUser(db, member.claims, (tx) =>
      tx.query(`select id, type from public.class_schedule(p_class_id => $1)`, [rows[0]!.id]),
    );
    expect(byId.rows).toEqual([{ id: rows[0]!.id, type: 'One-to-One' }]);
  });

  it('only admins publish availability and sessions; the jobs generate them as the service role', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) =>
        tx.query(`insert into public.trainer_availability (trainer_id, weekday, starts_at, ends_at) values ($1, 2, '09:00', '10:00')`, [
          trainerId,
        ]),
      ),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select public.publish_one_to_one_slots()')),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`select public.generate_one_to_one_slots(now())`)),
      { code: '42501' },
    );
    expect(await asUser(db, admin.claims, (tx) => rpc<number>(tx, 'public.publish_one_to_one_slots()'))).toBeGreaterThanOrEqual(0);
    await expectSqlError(generate(NOW, '400 days'), { hint: 'invalid_period' });
  });
});

// A member books a generated One-to-One session with the credit that expires first, or pays its
// price: never with the plan's classes, the free trial, or for nothing.
describe('booking personal training', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  let trainerId: string;
  const slots: string[] = [];
  type Slot = {
    id: string;
    trainer: string;
    price: number;
    spots_left: number;
    my_booking_id: string | null;
    credit_id: string | null;
    credit_expires_at: string | null;
    credit_refusal: string | null;
    credit_message: string | null;
  };
  const slotsFor = (m: TestUser) => asUser(db, m.claims, (tx) => rpc<Slot[]>(tx, 'public.personal_training_slots($1, 28)', [trainerId]));
  const grant = (m: TestUser, days: number, reason: string) =>
    asUser(db, admin.claims, (tx) =>
      rpc<number>(tx, `public.admin_grant_credits($1, 'personal_training', 1, $2, $3)`, [m.memberId, days, reason]),
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'book-pt-admin', { is_admin: true });
    trainerId = (await db.query<{ id: string }>(`insert into public.trainers (name) values ('Coach Booking') returning id`)).rows[0]!.id;
    // Three sessions, 2, 3 and 4 days ahead at 10:00 UTC.
    await db.query(
      `insert into public.trainer_one_off_slots (trainer_id, start_time)
       select $1, date_trunc('day', now()) + make_interval(days => d, hours => 10) from generate_series(2, 4) d`,
      [trainerId],
    );
    expect(await asServiceRole(db, (tx) => rpc<number>(tx, 'public.generate_one_to_one_slots(now())'))).toBe(3);
    slots.push(
      ...(await db.query<{ id: string }>('select id from public.classes where trainer_id = $1 order by start_time', [trainerId])).rows.map(
        (r) => r.id,
      ),
    );
  });
  afterAll(async () => {
    await db.close();
  });

  it('lists the sessions with what a booking would use: the credit that expires first, or the price', async () => {
    const member = await createUser(db, 'pt-lister', { membership_tier: 'payg', has_used_trial: true });
    const none = await slotsFor(member);
    expect(none.map((s) => [s.trainer, Number(s.price), s.credit_id, s.credit_refusal])).toEqual([
      ['Coach Booking', 115, null, 'no_credit'],
      ['Coach Booking', 115, null, 'no_credit'],
      ['Coach Booking', 115, null, 'no_credit'],
    ]);
    expect(none[0]!.credit_message).toBe('You have no personal-training session to use for this class: it is £115.00.');
    await grant(member, 60, 'Later one');
    await grant(member, 30, 'Sooner one');
    const { rows: sooner } = await db.query<{ id: string }>(
      `select id from public.credits where member_id = $1 and reason = 'Sooner one'`,
      [member.memberId],
    );
    const withCredit = await slotsFor(member);
    expect(withCredit.every((s) => s.credit_id === sooner[0]!.id && s.credit_expires_at !== null)).toBe(true);

    const booked = await asUser(db, member.claims, (tx) =>
      rpc<{ status: string; booking_type: string }>(tx, 'public.book_with_credit($1)', [slots[0]]),
    );
    expect(booked).toMatchObject({ status: 'booked', booking_type: 'credit' });
    const { rows: used } = await db.query<{ reason: string }>(
      'select reason from public.credits where member_id = $1 and used_at is not null',
      [member.memberId],
    );
    expect(used).toEqual([{ reason: 'Sooner one' }]);
    // The booked session stays on the member's list (as theirs); nobody else sees it any more.
    const after = await slotsFor(member);
    expect(after[0]).toMatchObject({ id: slots[0], spots_left: 0 });
    expect(after[0]!.my_booking_id).not.toBeNull();
    const other = await createUser(db, 'pt-other', { membership_tier: 'payg', has_used_trial: true });
    expect((await slotsFor(other)).map((s) => s.id)).toEqual(slots.slice(1));
  });

  it('a generated session is never on the plan, never the free trial, never free: it asks for its price', async () => {
    const standard = await createUser(db, 'pt-standard', { membership_tier: 'standard' });
    const trial = await createUser(db, 'pt-trial');
    const payg = await createUser(db, 'pt-payg', { membership_tier: 'payg', has_used_trial: true });
    // An admin blanking the price (the class form's default) does not make it free.
    await asUser(db, admin.claims, (tx) => tx.query('update public.classes set price_payg = null where id = $1', [slots[1]]));
    expect((await db.query('select price_payg::text as price from public.classes where id = $1', [slots[1]])).rows).toEqual([
      { price: '115.00' },
    ]);
    for (const [who, type] of [
      [standard, 'paid'],
      [standard, null],
      [trial, 'trial'],
      [trial, null],
      [payg, null],
      [payg, 'payg'],
    ] as const) {
      const result = await asUser(db, who.claims, (tx) =>
        rpc<{ status: string; needs_payment: boolean }>(tx, 'public.book_class($1, $2)', [slots[1], type]),
      );
      expect(result, `${who.email} ${type}`).toMatchObject({ status: 'payment_required', needs_payment: true });
    }
    expect((await db.query('select 1 from public.bookings where class_id = $1', [slots[1]])).rows).toEqual([]);
    expect(
      (await db.query<{ has_used_trial: boolean }>('select has_used_trial from public.members where id = $1', [trial.memberId])).rows,
    ).toEqual([{ has_used_trial: false }]);
    // Without a credit, a credit booking is refused with the price; the checkout's hold charges £115.
    await expectSqlError(
      asUser(db, payg.claims, (tx) => tx.query('select public.book_with_credit($1)', [slots[1]])),
      {
        hint: 'no_credit',
        message: 'You have no personal-training session to use for this class: it is £115.00.',
      },
    );
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ amount: number }>(tx, `public.create_class_payment_hold($1, $2, 15, 'paid')`, [standard.memberId, slots[1]]),
    );
    expect(Number(hold.amount)).toBe(115);
  });
});

// Admins book a member into a session with the member's credit, and move a session: the booking
// moves, so the credit that paid for it follows.
describe('admins and sessions', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  let trainerId: string;
  let sessions: string[] = [];
  const asAdmin = <T>(call: string, params: unknown[]) => asUser(db, admin.claims, (tx) => rpc<T>(tx, call, params));

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'move-admin', { is_admin: true });
    trainerId = (await db.query<{ id: string }>(`insert into public.trainers (name) values ('Coach Move') returning id`)).rows[0]!.id;
    await db.query(
      `insert into public.trainer_one_off_slots (trainer_id, start_time)
       select $1, date_trunc('day', now()) + make_interval(days => d, hours => 10) from generate_series(2, 5) d`,
      [trainerId],
    );
    await asServiceRole(db, (tx) => rpc<number>(tx, 'public.generate_one_to_one_slots(now())'));
    sessions = (
      await db.query<{ id: string }>('select id from public.classes where trainer_id = $1 order by start_time', [trainerId])
    ).rows.map((r) => r.id);
  });
  afterAll(async () => {
    await db.close();
  });

  it('books a member with their credit, moves the session with its credit, and refuses what it must', async () => {
    const member = await createUser(db, 'moved-member', { membership_tier: 'payg', has_used_trial: true });
    await expectSqlError(asAdmin('public.admin_book_one_to_one($1, $2)', [member.memberId, sessions[0]]), {
      hint: 'no_credit',
      message:
        'The member has no personal-training session to use for this session: it is £115.00, paid by the member on Personal training.',
    });
    await asAdmin(`public.admin_grant_credits($1, 'personal_training', 1, 4, 'Goodwill')`, [member.memberId]);
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select public.admin_book_one_to_one($1, $2)', [member.memberId, sessions[0]])),
      { hint: 'not_admin' },
    );
    const booked = await asAdmin<{ status: string; booking_id: string; booking_type: string }>('public.admin_book_one_to_one($1, $2)', [
      member.memberId,
      sessions[0],
    ]);
    expect(booked).toMatchObject({ status: 'booked', booking_type: 'credit' });
    await expectSqlError(asAdmin('public.admin_book_one_to_one($1, $2)', [member.memberId, sessions[0]]), { hint: 'already_booked' });

    const credit = async () =>
      (
        await db.query<{ booking_id: string | null; used: boolean }>(
          'select booking_id, used_at is not null as used from public.credits where member_id = $1',
          [member.memberId],
        )
      ).rows;
    expect(await credit()).toEqual([{ booking_id: booked.booking_id, used: true }]);

    expect(await asAdmin<string>('public.admin_move_session($1, $2)', [booked.booking_id, sessions[1]])).toBe(booked.booking_id);
    const spots = async () =>
      (
        await db.query<{ spots_left: number }>('select spots_left from public.classes where id = any($1) order by start_time', [sessions])
      ).rows.map((r) => r.spots_left);
    expect(await spots()).toEqual([1, 0, 1, 1]);
    expect(await credit()).toEqual([{ booking_id: booked.booking_id, used: true }]);
    const { rows: email } = await db.query<{ kind: string }>(
      `select kind from public.notification_outbox where member_id = $1 and kind = 'class_moved'`,
      [member.memberId],
    );
    expect(email).toHaveLength(1);

    // The credit (valid 4 days) ends before the session 5 days ahead; a taken session; the same one.
    await expectSqlError(asAdmin('public.admin_move_session($1, $2)', [booked.booking_id, sessions[3]]), { hint: 'credit_expires_before' });
    const other = await createUser(db, 'other-member', { membership_tier: 'payg', has_used_trial: true });
    await asAdmin(`public.admin_grant_credits($1, 'personal_training', 1, 30, 'Goodwill')`, [other.memberId]);
    await asAdmin('public.admin_book_one_to_one($1, $2)', [other.memberId, sessions[2]]);
    await expectSqlError(asAdmin('public.admin_move_session($1, $2)', [booked.booking_id, sessions[2]]), { hint: 'class_full' });
    await expectSqlError(asAdmin('public.admin_move_session($1, $2)', [booked.booking_id, sessions[1]]), { hint: 'same_session' });
    expect(await spots()).toEqual([1, 0, 0, 1]);

    // Cancelled in time from its new place, the credit comes back.
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [booked.booking_id]));
    expect(await credit()).toEqual([{ booking_id: null, used: false }]);
  });

  it('withdrawn availability takes its unbooked sessions with it; booked ones stay and are listed for the admin', async () => {
    const trainer = (await db.query<{ id: string }>(`insert into public.trainers (name) values ('Coach Withdrawn') returning id`)).rows[0]!
      .id;
    const asAdminSql = (sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => tx.query<{ id: string }>(sql, params));
    // One-offs at 10:00 and 11:00 London ten days ahead; that weekday 10:00-11:00 weekly too (it covers 10:00).
    const { rows: day } = await db.query<{ d: string; dow: number }>(
      `select to_char(d, 'YYYY-MM-DD') as d, extract(isodow from d)::int as dow from (select (now() at time zone 'Europe/London')::date + 10 as d) x`,
    );
    const at = (hh: string) => `(${`'${day[0]!.d} ${hh}'`}::timestamp at time zone 'Europe/London')`;
    const ten = (
      await asAdminSql(`insert into public.trainer_one_off_slots (trainer_id, start_time) values ($1, ${at('10:00')}) returning id`, [
        trainer,
      ])
    ).rows[0]!.id;
    const eleven = (
      await asAdminSql(`insert into public.trainer_one_off_slots (trainer_id, start_time) values ($1, ${at('11:00')}) returning id`, [
        trainer,
      ])
    ).rows[0]!.id;
    const weekly = (
      await asAdminSql(
        `insert into public.trainer_availability (trainer_id, weekday, starts_at, ends_at, session_minutes) values ($1, $2, '10:00', '11:00', 60) returning id`,
        [trainer, day[0]!.dow],
      )
    ).rows[0]!.id;
    await asServiceRole(db, (tx) => rpc<number>(tx, 'public.generate_one_to_one_slots(now())'));
    const left = async () =>
      (
        await db.query<{ hh: string }>(
          `select to_char(start_time at time zone 'Europe/London', 'HH24:MI') as hh from public.classes
            where trainer_id = $1 and type = 'One-to-One' and (start_time at time zone 'Europe/London')::date = $2::date
            order by start_time`,
          [trainer, day[0]!.d],
        )
      ).rows.map((r) => r.hh);
    expect(await left()).toEqual(['10:00', '11:00']);
    const [tenSession, elevenSession] = (
      await db.query<{ id: string }>(
        `select id from public.classes where trainer_id = $1 and (start_time at time zone 'Europe/London')::date = $2::date order by start_time`,
        [trainer, day[0]!.d],
      )
    ).rows.map((r) => r.id);

    // The 11:00 session is booked with a credit; the weekly window still publishes 10:00.
    const member = await createUser(db, 'withdrawn-member', { membership_tier: 'payg', has_used_trial: true });
    await asAdmin(`public.admin_grant_credits($1, 'personal_training', 1, 30, 'Goodwill')`, [member.memberId]);
    await asAdmin('public.admin_book_one_to_one($1, $2)', [member.memberId, elevenSession]);

    await asAdminSql('delete from public.trainer_one_off_slots where id = any($1::uuid[])', [[ten, eleven]]);
    // 10:00 is still published by the weekly window; 11:00 is booked: both stay.
    expect(await left()).toEqual(['10:00', '11:00']);
    const uncovered = () => asAdmin<{ class_id: string; member_name: string }[]>('public.admin_uncovered_sessions($1)', [trainer]);
    expect(await uncovered()).toEqual([expect.objectContaining({ class_id: elevenSession, member_name: 'Test withdrawn-member' })]);

    // Withdrawing the weekly window removes every unbooked session it made (10:00 on each of those weekdays).
    await asAdminSql('delete from public.trainer_availability where id = $1', [weekly]);
    expect(await left()).toEqual(['11:00']);
    const { rows: all } = await db.query('select id from public.classes where trainer_id = $1', [trainer]);
    expect(all).toEqual([{ id: elevenSession }]);
    expect((await db.query('select 1 from public.classes where id = $1', [tenSession])).rows).toEqual([]);
    // Idempotent; and only admins ask what stays.
    expect((await db.query<{ n: number }>('select private.withdraw_uncovered_one_to_one($1, now()) as n', [trainer])).rows[0]!.n).toBe(0);
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select * from public.admin_uncovered_sessions($1)', [trainer])),
      { hint: 'not_admin' },
    );
  });

  it("a move respects the package's weekly cap in the new week, naming that week's sessions", async () => {
    const member = await createUser(db, 'capped-member', { membership_tier: 'payg', has_used_trial: true });
    await asAdmin(`public.admin_grant_credits($1, 'personal_training', 3, 60, 'Package of three')`, [member.memberId]);
    // As a Bronze Package: at most 2 booked per London week.
    await db.query('update public.credits set weekly_cap = 2 where member_id = $1', [member.memberId]);
    // 10:00 London on the Monday of the week after next (UTC 10:00 is 10:00 in winter, 11:00 in summer; same day).
    const d = new Date(Date.now() + 14 * 86_400_000);
    const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7), 10);
    const at = async (days: number) => {
      const id = await createClass(db, { type: 'One-to-One', capacity: 1, price_payg: null, name: 'Capped Session' });
      await db.query(`update public.classes set start_time = $2, trainer = 'Coach Cap' where id = $1`, [
        id,
        new Date(monday + days * 86_400_000).toISOString(),
      ]);
      return id;
    };
    const [weekAMon, weekAWed, weekBMon, weekBWed, weekBFri] = [await at(0), await at(2), await at(7), await at(9), await at(11)];
    const book = async (classId: string) =>
      (await asAdmin<{ booking_id: string }>('public.admin_book_one_to_one($1, $2)', [member.memberId, classId])).booking_id;
    const moving = await book(weekAMon);
    const sameWeek = await book(weekBMon);
    await book(weekBWed);

    await expectSqlError(asAdmin('public.admin_move_session($1, $2)', [moving, weekBFri]), {
      hint: 'weekly_cap_reached',
      message: /^The package allows 2 sessions a week, and that week the member has booked Mon \d+ \w+ 10:00, Wed \d+ \w+ 10:00$/,
    });
    const classOf = async (bookingId: string) =>
      (await db.query<{ class_id: string }>('select class_id from public.bookings where id = $1', [bookingId])).rows[0]!.class_id;
    expect(await classOf(moving)).toBe(weekAMon);
    // Within the same week, or to a week with room, it moves.
    await asAdmin('public.admin_move_session($1, $2)', [sameWeek, weekBFri]);
    await asAdmin('public.admin_move_session($1, $2)', [moving, weekAWed]);
    expect([await classOf(sameWeek), await classOf(moving)]).toEqual([weekBFri, weekAWed]);
  });
});
