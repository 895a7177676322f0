import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, uniqueEmail, type TestUser } from './support/fixtures.ts';

// Coach pay (decision 0056): rates per coach per class type from a date; a monthly statement counts the
// classes the coach taught and the people checked in. A rate set on the 15th of this month never
// changes last month's statement; a coach reads only their own.

interface Line {
  class_id: string;
  class_name: string;
  attendees: number;
  basis: string | null;
  base_amount: number | null;
  per_attendee: number | null;
  amount: number | null;
}

let db: Database;
let admin: TestUser;
let coach: TestUser;
let otherCoach: TestUser;
let trainerId: string;
let otherTrainerId: string;
let lastMonth: string;
let thisMonth: string;

const newTrainer = async (label: string) =>
  (await db.query<{ id: string }>('insert into public.trainers (name) values ($1) returning id', [`Coach ${uniqueEmail(label)}`])).rows[0]!
    .id;

/** A class that ran at a London date and time, taught by `trainer`, with `attended` people checked in (one no-show too). */
async function ranClass(trainer: string, londonDay: string, attended: number, name = 'Bootcamp') {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer_id, type, capacity, price_payg)
     values ($1, ($2::date + time '09:00') at time zone 'Europe/London', $3, 'Group', 20, 10) returning id`,
    [name, londonDay, trainer],
  );
  const classId = rows[0]!.id;
  for (let i = 0; i <= attended; i += 1) {
    const m = await createUser(db, `pay-m${i}`);
    await db.query(`insert into public.bookings (member_id, class_id, type, attendance) values ($1, $2, 'paid', $3)`, [
      m.memberId,
      classId,
      i < attended ? 'attended' : 'no_show',
    ]);
  }
  return classId;
}

const setRate = (by: TestUser, trainer: string, basis: string, base: number, perAttendee: number, from: string) =>
  asUser(db, by.claims, (tx) =>
    rpc(tx, 'public.set_coach_pay_rate($1, $2, $3, $4, $5, $6)', [trainer, 'Group', basis, base, perAttendee, from]),
  );
const statement = (trainer: string, month: string) =>
  asUser(db, admin.claims, (tx) => rpc<Line[]>(tx, 'public.admin_coach_pay_statement($1, $2)', [trainer, month]));
const total = (lines: Line[]) => lines.reduce((sum, l) => sum + Number(l.amount ?? 0), 0);

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'pay-admin', { is_admin: true });
  coach = await createUser(db, 'pay-coach');
  otherCoach = await createUser(db, 'pay-other');
  trainerId = await newTrainer('pay-a');
  otherTrainerId = await newTrainer('pay-b');
  await db.query('insert into public.trainer_accounts (trainer_id, member_id) values ($1, $2), ($3, $4)', [
    trainerId,
    coach.memberId,
    otherTrainerId,
    otherCoach.memberId,
  ]);
  const { rows } = await db.query<{ last: string; this: string }>(
    `select to_char(date_trunc('month', now() at time zone 'Europe/London') - interval '1 month', 'YYYY-MM-DD') as last,
            to_char(date_trunc('month', now() at time zone 'Europe/London'), 'YYYY-MM-DD') as this`,
  );
  lastMonth = rows[0]!.last;
  thisMonth = rows[0]!.this;
  // Last month's rate, set back then (as the owner: today's rules refuse a past month).
  await db.query(
    `insert into public.coach_pay_rates (trainer_id, class_type, basis, base_amount, per_attendee, effective_from)
     values ($1, 'Group', 'base_plus_attendee', 20, 2, $2::date)`,
    [trainerId, lastMonth],
  );
});
afterAll(async () => {
  await db.close();
});

describe('coach pay statements', () => {
  it("a rate change on the 15th leaves last month's statement unchanged; totals follow the check-ins", async () => {
    await ranClass(trainerId, `${lastMonth.slice(0, 8)}03`, 4);
    await ranClass(trainerId, `${lastMonth.slice(0, 8)}20`, 1);
    const before = await statement(trainerId, lastMonth);
    expect(before.map((l) => l.attendees)).toEqual([4, 1]);
    // (20 + 2 × 4) + (20 + 2 × 1)
    expect(total(before)).toBe(50);

    await setRate(admin, trainerId, 'per_attendee', 0, 5, `${thisMonth.slice(0, 8)}15`);
    expect(await statement(trainerId, lastMonth)).toEqual(before);

    // This month: a class before the 15th at the old rate, none after yet (started classes only).
    const { rows } = await db.query<{ today: string }>(`select to_char(now() at time zone 'Europe/London', 'DD') as today`);
    if (Number(rows[0]!.today) > 1) {
      await ranClass(trainerId, thisMonth, 3);
      const lines = await statement(trainerId, thisMonth);
      expect(lines.find((l) => l.attendees === 3)).toMatchObject({ basis: 'base_plus_attendee' });
    }
  });

  it('refuses a rate for a month already begun, and from anyone but an admin', async () => {
    await expectSqlError(setRate(admin, trainerId, 'per_class', 30, 0, lastMonth), { hint: 'pay_rate_in_past' });
    await expectSqlError(setRate(coach, trainerId, 'per_class', 30, 0, thisMonth), { code: '42501' });
    await expectSqlError(setRate(admin, trainerId, 'hourly', 30, 0, thisMonth), { hint: 'invalid_pay_rate' });
  });

  it('cover counts for the coach who taught; a class with no rate pays nothing and says so', async () => {
    const covered = await ranClass(otherTrainerId, `${lastMonth.slice(0, 8)}10`, 2, 'Covered Bootcamp');
    const lines = await statement(otherTrainerId, lastMonth);
    expect(lines).toEqual([expect.objectContaining({ class_id: covered, attendees: 2, basis: null, amount: null })]);
    expect((await statement(trainerId, lastMonth)).some((l) => l.class_id === covered)).toBe(false);
  });

  it("each coach reads only their own statement and rates; members and coaches cannot read another's", async () => {
    const mine = await asUser(db, coach.claims, (tx) => rpc<Line[]>(tx, 'public.my_coach_pay_statement($1)', [lastMonth]));
    expect(mine.map((l) => l.class_id).sort()).toEqual((await statement(trainerId, lastMonth)).map((l) => l.class_id).sort());
    const theirs = await asUser(db, otherCoach.claims, (tx) => rpc<Line[]>(tx, 'public.my_coach_pay_statement($1)', [lastMonth]));
    expect(theirs.every((l) => l.class_name === 'Covered Bootcamp')).toBe(true);
    await expectSqlError(
      asUser(db, coach.claims, (tx) => rpc(tx, 'public.admin_coach_pay_statement($1, $2)', [otherTrainerId, lastMonth])),
      { code: '42501' },
    );
    const member = await createUser(db, 'pay-member');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.my_coach_pay_statement($1)', [lastMonth])),
      { hint: 'coach_only' },
    );
    const rates = await asUser(db, otherCoach.claims, async (tx) => (await tx.query('select trainer_id from public.coach_pay_rates')).rows);
    expect(rates).toEqual([]);
    const ownRates = await asUser(db, coach.claims, async (tx) => (await tx.query('select trainer_id from public.coach_pay_rates')).rows);
    expect(ownRates.length).toBe(2);
  });
});
