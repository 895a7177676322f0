import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform } from '../../local/db/apply.ts';
import { asUser } from '../../local/db/as-user.ts';
import type { SqlDatabase } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { classCounts, createClass, createUser, type TestUser } from '../support/fixtures.ts';
import { findPostgresBinDir, pg, pgClientDatabase, startThrowawayCluster, type ThrowawayCluster } from '../support/real-postgres.ts';
import { bookingIdOf, waitlistOf } from './helpers.ts';

// Every holder of a full class cancels at the same moment while outsiders try to book it. Each
// freed spot must go to the waitlist in order, once: no member promoted twice, no outsider slipping
// in ahead of the line, capacity and counters exact. PGlite queues the calls (one session); the
// real race runs on a PostgreSQL server with one connection per request, when one is installed.

const CAPACITY = 4;
const WAITING = 6;
const OUTSIDERS = 4;

async function setUp(db: SqlDatabase) {
  const classId = await createClass(db, { capacity: CAPACITY, name: 'Cancel Race' });
  const holders: TestUser[] = [];
  for (let i = 0; i < CAPACITY; i += 1) {
    const h = await createUser(db, `race-holder-${i}`, { membership_tier: 'premium' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [h.memberId, classId]);
    holders.push(h);
  }
  const line: TestUser[] = [];
  for (let i = 0; i < WAITING; i += 1) {
    const w = await createUser(db, `race-wait-${i}`, { membership_tier: 'premium' });
    await asUser(db, w.claims, (tx) => tx.query('select public.join_waitlist($1)', [classId]));
    line.push(w);
  }
  const outsiders: TestUser[] = [];
  for (let i = 0; i < OUTSIDERS; i += 1) outsiders.push(await createUser(db, `race-out-${i}`, { membership_tier: 'premium' }));
  const calls: Call[] = [];
  for (const h of holders)
    calls.push({ claims: h.claims, sql: 'select public.cancel_booking($1)', params: [await bookingIdOf(db, h.memberId, classId)] });
  // Interleave outsiders between the cancellations.
  outsiders.forEach((o, i) => calls.splice(i * 2 + 1, 0, { claims: o.claims, sql: 'select public.book_class($1)', params: [classId] }));
  return { classId, holders, line, outsiders, calls };
}

interface Call {
  claims: TestUser['claims'];
  sql: string;
  params: unknown[];
}
type Outcome = { ok: true } | { ok: false; hint: string | undefined; message: string };

async function expectOrderlyPromotion(db: SqlDatabase, setup: Awaited<ReturnType<typeof setUp>>, outcomes: Outcome[]) {
  const { classId, line, outsiders, calls } = setup;
  const cancels = outcomes.filter((_, i) => calls[i]!.sql.includes('cancel_booking'));
  const books = outcomes.filter((_, i) => calls[i]!.sql.includes('book_class'));
  expect(cancels).toEqual(cancels.map(() => ({ ok: true })));
  expect(books.map((b) => (b.ok ? 'booked' : b.hint))).toEqual(outsiders.map(() => 'class_full'));

  const booked: boolean[] = [];
  for (const w of line) booked.push((await bookingIdOf(db, w.memberId, classId)) !== null);
  expect(booked).toEqual(line.map((_, i) => i < CAPACITY));
  expect(await waitlistOf(db, classId)).toEqual(line.slice(CAPACITY).map((w) => w.memberId));
  expect(await classCounts(db, classId)).toEqual({ capacity: CAPACITY, current_bookings: CAPACITY, spots_left: 0, bookings: CAPACITY });
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from public.notification_outbox where class_id = $1 and kind = 'waitlist_promoted'`,
    [classId],
  );
  expect(rows[0]!.n).toBe(CAPACITY);
}

describe('concurrent cancellations with a waitlist', () => {
  it('PGlite: promotes the line in order, once each', async () => {
    const db = await createTestDatabase();
    try {
      const setup = await setUp(db);
      const outcomes = await Promise.all(
        setup.calls.map((c) =>
          asUser(db, c.claims, (tx) => tx.query(c.sql, c.params)).then(
            (): Outcome => ({ ok: true }),
            (e: { hint?: string; message: string }): Outcome => ({ ok: false, hint: e.hint, message: e.message }),
          ),
        ),
      );
      await expectOrderlyPromotion(db, setup, outcomes);
    } finally {
      await db.close();
    }
  });

  describe('real PostgreSQL, one connection per request', () => {
    const binDir = findPostgresBinDir();
    let cluster: ThrowawayCluster | undefined;
    let owner: pg.Client | undefined;

    beforeAll(async () => {
      if (!binDir) {
        console.log('[waitlist concurrency real PostgreSQL] SKIPPED: no initdb/pg_ctl/postgres found');
        return;
      }
      cluster = await startThrowawayCluster(binDir);
      owner = new pg.Client({ connectionString: cluster.connectionString });
      await owner.connect();
      const db = pgClientDatabase(owner);
      await applyPlatform(db);
      await applyMigrations(db);
    }, 120_000);

    afterAll(async () => {
      await owner?.end();
      cluster?.stop();
    });

    async function race(calls: Call[]): Promise<Outcome[]> {
      const clients = await Promise.all(
        calls.map(async () => {
          const c = new pg.Client({ connectionString: cluster!.connectionString });
          await c.connect();
          return c;
        }),
      );
      try {
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
              async (e: { hint?: string; message: string }): Promise<Outcome> => {
                await c.query('rollback');
                return { ok: false, hint: e.hint, message: e.message };
              },
            ),
          ),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    }

    it.skipIf(!binDir)('promotes the line in order, once each, with outsiders refused', async () => {
      const db = pgClientDatabase(owner!);
      const setup = await setUp(db);
      const outcomes = await race(setup.calls);
      await expectOrderlyPromotion(db, setup, outcomes);
    });

    it.skipIf(!binDir)('members waiting on each other’s classes cancel at once without deadlocking', async () => {
      const db = pgClientDatabase(owner!);
      // In each pair, A holds class 1 and waits for class 2; B holds class 2 and waits for class 1.
      // Several pairs at once, so the crossing locks really overlap.
      const pairs = [];
      const calls: Call[] = [];
      for (let i = 0; i < 5; i += 1) {
        const [c1, c2] = [await createClass(db, { capacity: 1 }), await createClass(db, { capacity: 1 })];
        const a = await createUser(db, `cross-a-${i}`, { membership_tier: 'premium' });
        const b = await createUser(db, `cross-b-${i}`, { membership_tier: 'premium' });
        await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid'), ($3, $4, 'paid')`, [
          a.memberId,
          c1,
          b.memberId,
          c2,
        ]);
        await asUser(db, a.claims, (tx) => tx.query('select public.join_waitlist($1)', [c2]));
        await asUser(db, b.claims, (tx) => tx.query('select public.join_waitlist($1)', [c1]));
        calls.push(
          { claims: a.claims, sql: 'select public.cancel_booking($1)', params: [await bookingIdOf(db, a.memberId, c1)] },
          { claims: b.claims, sql: 'select public.cancel_booking($1)', params: [await bookingIdOf(db, b.memberId, c2)] },
        );
        pairs.push({ a, b, c1, c2 });
      }
      const outcomes = await race(calls);
      expect(outcomes).toEqual(calls.map(() => ({ ok: true })));
      for (const { a, b, c1, c2 } of pairs) {
        expect(await bookingIdOf(db, a.memberId, c2)).not.toBeNull();
        expect(await bookingIdOf(db, b.memberId, c1)).not.toBeNull();
      }
    });
  });
});
