import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform } from '../local/db/apply.ts';
import { asUser } from '../local/db/as-user.ts';
import type { SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { classCounts, createClass, createUser, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, pg, pgClientDatabase, startThrowawayCluster, type ThrowawayCluster } from './support/real-postgres.ts';

// Many members try to take the last spots of one class at the same time. Capacity must hold and
// spots_left must equal capacity - bookings. PGlite is one session (calls queue), so the same
// race also runs on a real PostgreSQL server with one connection per member, when one exists.

const CAPACITY = 12;
const ALREADY_BOOKED = 9; // 3 spots left
const ATTEMPTS = 24;

async function setUpRace(db: SqlExecutor) {
  const classId = await createClass(db, { capacity: CAPACITY, name: 'Last Spots' });
  const members: TestUser[] = [];
  for (let i = 0; i < ALREADY_BOOKED + ATTEMPTS; i += 1) members.push(await createUser(db, `racer-${i}`, { membership_tier: 'premium' }));
  for (const m of members.slice(0, ALREADY_BOOKED)) {
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [m.memberId, classId]);
  }
  return { classId, racers: members.slice(ALREADY_BOOKED) };
}

type Outcome = { ok: true } | { ok: false; hint: string | undefined };

function report(engine: string, outcomes: Outcome[]) {
  const successes = outcomes.filter((o) => o.ok).length;
  const refusals = outcomes.filter((o): o is { ok: false; hint: string | undefined } => !o.ok);
  console.log(
    `[concurrency ${engine}] ${outcomes.length} simultaneous book_class attempts for ${CAPACITY - ALREADY_BOOKED} spots: ` +
      `${successes} succeeded, ${refusals.length} refused (${[...new Set(refusals.map((r) => r.hint))].join(', ')})`,
  );
  return { successes, refusals };
}

describe('concurrent bookings of the last spots', () => {
  it('PGlite: never exceeds capacity', async () => {
    const db = await createTestDatabase();
    try {
      const { classId, racers } = await setUpRace(db);
      const outcomes = await Promise.all(
        racers.map((r) =>
          asUser(db, r.claims, (tx) => tx.query('select public.book_class($1)', [classId])).then(
            (): Outcome => ({ ok: true }),
            (e: { hint?: string }): Outcome => ({ ok: false, hint: e.hint }),
          ),
        ),
      );
      const { successes, refusals } = report('PGlite', outcomes);
      expect(successes).toBe(CAPACITY - ALREADY_BOOKED);
      expect(refusals.every((r) => r.hint === 'class_full')).toBe(true);
      expect(await classCounts(db, classId)).toEqual({ capacity: CAPACITY, current_bookings: CAPACITY, spots_left: 0, bookings: CAPACITY });
    } finally {
      await db.close();
    }
  });

  describe('real PostgreSQL, one connection per member', () => {
    const binDir = findPostgresBinDir();
    let cluster: ThrowawayCluster | undefined;
    let admin: pg.Client | undefined;

    beforeAll(async () => {
      if (!binDir) {
        console.log(
          '[concurrency real PostgreSQL] SKIPPED: no initdb/pg_ctl/postgres found in /usr/local/bin or /usr/lib/postgresql/*/bin',
        );
        return;
      }
      cluster = await startThrowawayCluster(binDir);
      admin = new pg.Client({ connectionString: cluster.connectionString });
      await admin.connect();
      const db = pgClientDatabase(admin);
      await applyPlatform(db);
      await applyMigrations(db);
    }, 120_000);

    afterAll(async () => {
      await admin?.end();
      cluster?.stop();
    });

    async function race(calls: { claims: TestUser['claims']; sql: string; params: unknown[] }[]): Promise<Outcome[]> {
      const clients = await Promise.all(
        calls.map(async () => {
          const c = new pg.Client({ connectionString: cluster!.connectionString });
          await c.connect();
          return c;
        }),
      );
      try {
        // Every connection opens its transaction first; then all calls are sent at once.
        await Promise.all(
          clients.map(async (c, i) => {
            await c.query('begin');
            await c.query('set local role authenticated');
            await c.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(calls[i]!.claims)]);
          }),
        );
        return await Promise.all(
          clients.map((c, i) =>
            c.query(calls[i]!.sql, calls[i]!.params).then(
              async (): Promise<Outcome> => {
                await c.query('commit');
                return { ok: true };
              },
              async (e: { hint?: string }): Promise<Outcome> => {
                await c.query('rollback');
                return { ok: false, hint: e.hint };
              },
            ),
          ),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    }

    it.skipIf(!binDir)('never exceeds capacity, and spots_left = capacity - bookings', async () => {
      const db = pgClientDatabase(admin!);
      const { classId, racers } = await setUpRace(db);
      const outcomes = await race(racers.map((r) => ({ claims: r.claims, sql: 'select public.book_class($1)', params: [classId] })));
      const { successes, refusals } = report('PostgreSQL 15', outcomes);
      expect(successes).toBe(CAPACITY - ALREADY_BOOKED);
      expect(refusals.every((r) => r.hint === 'class_full')).toBe(true);
      expect(await classCounts(db, classId)).toEqual({ capacity: CAPACITY, current_bookings: CAPACITY, spots_left: 0, bookings: CAPACITY });
    });

    it.skipIf(!binDir)('one free trial cannot be used twice by simultaneous bookings', async () => {
      const db = pgClientDatabase(admin!);
      const trial = await createUser(db, 'double-trial', {}, { signup_source: 'free-trial' });
      const classes = [await createClass(db), await createClass(db), await createClass(db)];
      await race(classes.map((id) => ({ claims: trial.claims, sql: `select public.book_class($1, 'trial')`, params: [id] })));
      const { rows } = await db.query<{ trials: number; tier: string }>(
        `select (select count(*)::int from public.bookings where member_id = m.id and type = 'trial') as trials,
                m.membership_tier as tier from public.members m where m.id = $1`,
        [trial.memberId],
      );
      expect(rows).toEqual([{ trials: 1, tier: 'payg' }]);
    });

    it.skipIf(!binDir)('simultaneous refunds of one refund owed through the provider: one claim, so one refund is sent', async () => {
      const db = pgClientDatabase(admin!);
      const boss = await createUser(db, 'refund-race-admin', { is_admin: true, membership_tier: 'premium' });
      const payg = await createUser(db, 'refund-race-member', { membership_tier: 'payg', has_used_trial: true });
      const { rows } = await db.query<{ id: string }>(
        `with p as (insert into public.payments (member_id, kind, amount, description, checkout_reference, provider_checkout_id, status, paid_at)
                    values ($1, 'class', 10, 'Race - PAYG Booking', 'class-' || gen_random_uuid(), 'chk-' || gen_random_uuid(), 'paid', now())
                    returning id)
         insert into public.refunds_owed (payment_id, member_id, member_email, description, amount, reason)
         select p.id, $1, $2, 'Race - PAYG Booking', 10, 'admin_cancelled' from p returning id`,
        [payg.memberId, payg.email],
      );
      const refundId = rows[0]!.id;
      const outcomes = await race(
        Array.from({ length: 5 }, () => ({ claims: boss.claims, sql: 'select public.begin_provider_refund($1)', params: [refundId] })),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok).map((o) => (o as { hint?: string }).hint)).toEqual(Array(4).fill('refund_in_progress'));
    });

    it.skipIf(!binDir)('simultaneous bookings at the allowance edge use exactly the allowance', async () => {
      const db = pgClientDatabase(admin!);
      const standard = await createUser(db, 'allowance-edge', { membership_tier: 'standard' });
      // 10 of the 12 classes used this month; 5 bookings at once: 2 on the plan, 3 asked to pay.
      for (let i = 0; i < 10; i += 1) {
        const used = await createClass(db);
        await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [standard.memberId, used]);
      }
      const classes: string[] = [];
      for (let i = 0; i < 5; i += 1) classes.push(await createClass(db, { price_payg: 10 }));
      const outcomes = await race(classes.map((id) => ({ claims: standard.claims, sql: 'select public.book_class($1)', params: [id] })));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      const { rows } = await db.query<{ paid: number; all: number }>(
        `select count(*) filter (where type = 'paid')::int as paid, count(*)::int as all from public.bookings where member_id = $1`,
        [standard.memberId],
      );
      expect(rows).toEqual([{ paid: 12, all: 12 }]);
    });
  });
});
