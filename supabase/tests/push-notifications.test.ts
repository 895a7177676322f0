import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database, SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { pushEndpointAllowed } from '../../netlify/lib/push/push-endpoint.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Web Push in SQL (supabase/schemas/20_push.sql, decision 0023) through the API roles: devices,
// preferences, which events queue a push and for whom, quiet hours, reminders, and the sender's
// contract (each push handed out once; a device that is gone takes its pushes with it).

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

/** A browser's subscription as PushManager gives it: its own endpoint, a P-256 key and an auth secret. */
function device(n = Math.random()) {
  const key = Buffer.concat([Buffer.from([4]), randomBytes(64)]);
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${n}-${randomBytes(6).toString('hex')}`,
    p256dh: key.toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

async function subscribe(d: Database, member: TestUser, sub = device()) {
  await asUser(d, member.claims, (tx) =>
    rpc(tx, 'public.save_push_subscription($1, $2, $3, $4)', [sub.endpoint, sub.p256dh, sub.auth, 'Test phone']),
  );
  return sub;
}

type Push = { id: string; kind: string; endpoint: string; title: string; body: string; path: string; tag: string; subscription_id: string };
const dequeue = (d: Database, now: string) =>
  asServiceRole(d, async (tx) => (await tx.query<Push>('select * from public.dequeue_pushes($1)', [now])).rows);

async function queued(d: SqlExecutor, memberId: string) {
  const { rows } = await d.query<{
    kind: string;
    title: string;
    body: string;
    path: string;
    next_attempt_at: Date;
    failed_at: Date | null;
    last_error: string | null;
  }>(
    // Rows of one transaction share created_at: the time each is due orders them.
    'select kind, title, body, path, next_attempt_at, failed_at, last_error from public.push_outbox where member_id = $1 order by created_at, next_attempt_at, id',
    [memberId],
  );
  return rows;
}

/**
 * Only this member's devices and pushes from here on. Earlier tests' members booked classes whose
 * hour depends on when the run started: at 03:00 they are early classes, and the jobs would remind
 * them too.
 */
async function onlyPushesOf(member: TestUser) {
  await db.query('delete from public.push_subscriptions where member_id <> $1', [member.memberId]);
  await db.query(
    `delete from public.notification_deliveries d using public.notification_events e
      where e.id = d.event_id and d.channel = 'push' and e.member_id <> $1`,
    [member.memberId],
  );
}

const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const soon = () => at(new Date().toISOString(), 1);

/** A London wall-clock time `days` days from today, as an ISO instant. */
async function london(d: SqlExecutor, days: number, time: string): Promise<string> {
  const { rows } = await d.query<{ at: string }>(
    `select to_json(((now() at time zone 'Europe/London')::date + $1::int + $2::time) at time zone 'Europe/London')#>>'{}' as at`,
    [days, time],
  );
  return new Date(rows[0]!.at).toISOString();
}

async function classAt(d: SqlExecutor, startsAt: string, name = 'Breakfast Club'): Promise<string> {
  const id = await createClass(d, { name });
  await d.query('update public.classes set start_time = $2 where id = $1', [id, startsAt]);
  return id;
}

async function book(d: SqlExecutor, member: TestUser, classId: string): Promise<string> {
  const { rows } = await d.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`,
    [member.memberId, classId],
  );
  return rows[0]!.id;
}

describe('devices', () => {
  it('saves a device for the member, who alone reads and removes it; a browser signed in by another member moves to them', async () => {
    const ann = await createUser(db, 'push-ann');
    const bob = await createUser(db, 'push-bob');
    const sub = await subscribe(db, ann);
    const mine = (m: TestUser) =>
      asUser(
        db,
        m.claims,
        async (tx) => (await tx.query<{ endpoint: string; device: string }>('select endpoint, device from public.push_subscriptions')).rows,
      );
    expect(await mine(ann)).toEqual([{ endpoint: sub.endpoint, device: 'Test phone' }]);
    expect(await mine(bob)).toEqual([]);
    // Bob cannot remove Ann's device (RLS hides it: nothing deleted).
    await asUser(db, bob.claims, (tx) => tx.query('delete from public.push_subscriptions where endpoint = $1', [sub.endpoint]));
    expect(await mine(ann)).toHaveLength(1);

    await subscribe(db, bob, sub);
    expect(await mine(ann)).toEqual([]);
    expect(await mine(bob)).toEqual([{ endpoint: sub.endpoint, device: 'Test phone' }]);
    await asUser(db, bob.claims, (tx) => tx.query('delete from public.push_subscriptions where endpoint = $1', [sub.endpoint]));
    expect(await mine(bob)).toEqual([]);
  });

  it('refuses an endpoint that is not https or keys of the wrong shape, and anonymous callers', async () => {
    const cat = await createUser(db, 'push-cat');
    const good = device();
    for (const bad of [
      { ...good, endpoint: 'http://push.example.test/x' },
      { ...good, p256dh: 'short' },
      { ...good, auth: '' },
    ]) {
      await expectSqlError(subscribe(db, cat, bad), { hint: 'invalid_push_subscription', code: '22023' });
    }
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.save_push_subscription($1, $2, $3)', [good.endpoint, good.p256dh, good.auth])),
      { code: '42501' },
    );
  });
});

/** Endpoints as browsers' push services give them, and addresses a member might give instead. */
const PUSH_SERVICES = [
  'https://fcm.googleapis.com/fcm/send/dUyK3kd3M8g:APA91bH',
  'https://fcm.googleapis.com/wp/dUyK3kd3M8g:APA91bH',
  'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
  'https://web.push.apple.com/QGuQyavXutnMH7mpFMrw',
  'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD',
];
const LOOPBACK = ['http://127.0.0.1:54321/push/v1/send/abc', 'http://localhost:54321/push/v1/send/abc', 'https://127.0.0.1/x'];
const ELSEWHERE = [
  'https://push.example.test/send/abc',
  'https://studio-admin.internal/push',
  'https://169.254.169.254/latest/meta-data',
  'https://evil.example/fcm.googleapis.com/',
  'https://fcm.googleapis.com.evil.example/x',
  'https://fcm.googleapis.com@evil.example/x',
  'https://fcm.googleapis.com:8443/x',
  'http://fcm.googleapis.com/x',
  'https://notify.windows.com.evil.example/x',
  'https://evil.example/.notify.windows.com/x',
  'http://127.0.0.2/x',
  'http://127.0.0.1.evil.example/x',
  'http://[::1]:54321/push/v1/send/abc',
];

/** The setting the local stack writes on every start (supabase/local/gateway.sql). */
const localStack = (on: boolean) => db.query('update private.push_settings set local_push_service = $1 where id', [on]);

describe('push endpoints', () => {
  it("accepts only the push services' addresses; loopback only where the local stack runs its own push service", async () => {
    const dee = await createUser(db, 'push-dee');
    const at = (endpoint: string) => subscribe(db, dee, { ...device(), endpoint });
    for (const endpoint of PUSH_SERVICES) await at(endpoint);
    for (const endpoint of [...LOOPBACK, ...ELSEWHERE]) {
      await expectSqlError(at(endpoint), {
        code: '22023',
        hint: 'invalid_push_subscription',
        message: 'This browser gave an address for notifications that we cannot use.',
      });
    }
    await localStack(true);
    try {
      for (const endpoint of LOOPBACK) await at(endpoint);
      for (const endpoint of ELSEWHERE) await expectSqlError(at(endpoint), { hint: 'invalid_push_subscription' });
    } finally {
      await localStack(false);
    }
  });

  it('is the list the sender keeps (netlify/lib/push), address by address, deployed and on the local stack', async () => {
    const inDatabase = async (endpoint: string) =>
      (await db.query<{ ok: boolean }>('select private.push_endpoint_allowed($1) as ok', [endpoint])).rows[0]!.ok;
    for (const loopback of [false, true]) {
      await localStack(loopback);
      try {
        for (const endpoint of [...PUSH_SERVICES, ...LOOPBACK, ...ELSEWHERE]) {
          expect(await inDatabase(endpoint), `${endpoint} (local stack: ${loopback})`).toBe(pushEndpointAllowed(endpoint, { loopback }));
        }
      } finally {
        await localStack(false);
      }
    }
  });

  it('keeps the setting out of reach of members and the service role', async () => {
    const eve = await createUser(db, 'push-eve');
    for (const run of [
      (sql: string) => asUser(db, eve.claims, (tx) => tx.query(sql)),
      (sql: string) => asServiceRole(db, (tx) => tx.query(sql)),
    ]) {
      await expectSqlError(run('update private.push_settings set local_push_service = true where id'), { code: '42501' });
    }
    expect((await db.query('select local_push_service from private.push_settings')).rows).toEqual([{ local_push_service: false }]);
  });
});

describe('pushes beside the emails', () => {
  it('tells the next on the waitlist on each of their devices, once, and not when they turned promotions off', async () => {
    const first = await createUser(db, 'push-first', { membership_tier: 'premium' });
    const next = await createUser(db, 'push-next', { membership_tier: 'premium' });
    const classId = await createClass(db, { name: 'Promo Spin', capacity: 1 });
    const phone = await subscribe(db, next);
    const laptop = await subscribe(db, next);
    const booking = await asUser(db, first.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]));
    await asUser(db, next.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    await asUser(db, first.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [booking.booking_id]));

    const pushes = (await dequeue(db, soon())).filter((p) => p.kind === 'waitlist_promoted');
    expect(pushes.map((p) => p.endpoint).sort()).toEqual([phone.endpoint, laptop.endpoint].sort());
    expect(pushes[0]).toMatchObject({ title: 'A spot opened: you are booked', path: '/mybookings', tag: `class:${classId}` });
    expect(pushes[0]!.body).toMatch(/^Promo Spin with Coach Test, [A-Z][a-z]+day .+ [AP]M\.$/);
    // Handed out once: the next sender finds nothing.
    expect((await dequeue(db, soon())).filter((p) => p.kind === 'waitlist_promoted')).toEqual([]);

    const optedOut = await createUser(db, 'push-optout', { membership_tier: 'premium' });
    await subscribe(db, optedOut);
    await asUser(db, optedOut.claims, (tx) => rpc(tx, `public.set_notification_preference('push', 'waitlist_promoted', false)`));
    const other = await createClass(db, { name: 'Promo Row', capacity: 1 });
    const taken = await asUser(db, first.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [other]));
    await asUser(db, optedOut.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [other]));
    await asUser(db, first.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [taken.booking_id]));
    expect(await queued(db, optedOut.memberId)).toEqual([]);
    // The email still goes: pushes only add to it.
    const { rows } = await db.query(`select 1 from public.notification_outbox where member_id = $1 and kind = 'waitlist_promoted'`, [
      optedOut.memberId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('tells booked members of a moved class, a cancelled class with its reason, and a closure; never those without a device', async () => {
    const booked = await createUser(db, 'push-booked', { membership_tier: 'premium' });
    const noDevice = await createUser(db, 'push-nodevice', { membership_tier: 'premium' });
    await subscribe(db, booked);
    const moved = await createClass(db, { name: 'Moved Yoga', startsIn: '3 days' });
    const cancelled = await createClass(db, { name: 'Gone Pilates', startsIn: '3 days' });
    for (const c of [moved, cancelled]) {
      await book(db, booked, c);
      await book(db, noDevice, c);
    }
    await db.query(`update public.classes set start_time = start_time + interval '2 hours' where id = $1`, [moved]);
    await db.query('delete from public.classes where id = $1', [cancelled]);
    expect((await queued(db, booked.memberId)).map((p) => [p.kind, p.title])).toEqual([
      ['class_moved', 'Class moved: Moved Yoga'],
      ['class_cancelled', 'Class cancelled: Gone Pilates'],
    ]);
    expect((await queued(db, booked.memberId))[1]!.body).toMatch(/: the studio cancelled the class\.$/);
    expect(await queued(db, noDevice.memberId)).toEqual([]);

    const admin = await createUser(db, 'push-admin', { is_admin: true });
    const closedOn = (await london(db, 5, '00:00')).slice(0, 10);
    const onClosedDay = await classAt(db, await london(db, 5, '10:00'), 'Closed Day Boxing');
    await book(db, booked, onClosedDay);
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.add_studio_closure($1, $2)', [closedOn, 'Boiler repair']));
    const closure = (await queued(db, booked.memberId)).find((p) => p.kind === 'studio_closure');
    expect(closure?.title).toMatch(/^The studio is closed on \d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect(closure?.body).toBe('Closed Day Boxing at 10:00 AM is cancelled. It does not count against your plan.');
  });

  it('points to the email for a failed payment (the email is the record), and respects the preference', async () => {
    const payer = await createUser(db, 'push-payer');
    await subscribe(db, payer);
    const insertFailed = (key: string) =>
      db.query(
        `select private.enqueue_email('payment_failed', $1, $2, null, null, 'Payment failed: please update your card', 'x',
                                      '[{"label":"Update card","path":"/membership"}]', $3)`,
        [payer.email, payer.memberId, key],
      );
    await insertFailed(`pf-${payer.memberId}-1`);
    expect(await queued(db, payer.memberId)).toEqual([
      expect.objectContaining({
        kind: 'payment_failed',
        title: 'Payment failed: please update your card',
        body: `The details are in the email we sent to ${payer.email}.`,
        path: '/membership',
      }),
    ]);
    await asUser(db, payer.claims, (tx) => rpc(tx, `public.set_notification_preference('push', 'payment_failed', false)`));
    await insertFailed(`pf-${payer.memberId}-2`);
    expect(await queued(db, payer.memberId)).toHaveLength(1);
  });
});

describe('reminders before an early class', () => {
  it('queues one per booking for the member’s lead time, sends it then, and again after a change of lead, never twice', async () => {
    const early = await createUser(db, 'push-early');
    await subscribe(db, early);
    await onlyPushesOf(early);
    const sixAm = await london(db, 2, '06:00');
    const breakfast = await classAt(db, sixAm);
    const evening = await classAt(db, await london(db, 2, '18:00'), 'Evening Spin');
    await book(db, early, breakfast);
    await book(db, early, evening);
    const remind = (now: string) => asServiceRole(db, (tx) => rpc<number>(tx, 'public.enqueue_push_reminders_at($1)', [now]));

    // Three hours before: not within the next run's hour for a 60-minute lead.
    expect(await remind(at(sixAm, -180))).toBe(0);
    const jobAt = at(sixAm, -100);
    expect(await remind(jobAt)).toBe(1);
    expect(await remind(jobAt)).toBe(0);
    const reminders = async (now: string) => (await dequeue(db, now)).filter((p) => p.kind === 'class_reminder');
    expect(await reminders(jobAt)).toEqual([]);
    const [reminder, ...none] = await reminders(at(sixAm, -60));
    expect(none).toEqual([]);
    expect(reminder).toMatchObject({ kind: 'class_reminder', title: 'Reminder: Breakfast Club at 6:00 AM', path: '/mybookings' });
    expect(await remind(at(sixAm, -30))).toBe(0);

    // A second early class; the member picks 30 minutes after the reminder was queued for 60.
    const sevenAm = await london(db, 3, '07:00');
    await book(db, early, await classAt(db, sevenAm, 'Dawn Row'));
    expect(await remind(at(sevenAm, -90))).toBe(1);
    await asUser(db, early.claims, (tx) => rpc(tx, 'public.set_push_preferences(30)'));
    expect(await reminders(at(sevenAm, -60))).toEqual([]);
    expect(await remind(at(sevenAm, -60))).toBe(1);
    expect((await reminders(at(sevenAm, -30))).map((p) => p.title)).toEqual(['Reminder: Dawn Row at 7:00 AM']);

    // Off: none at all.
    await asUser(db, early.claims, (tx) => rpc(tx, `public.set_notification_preference('push', 'class_reminder', false)`));
    const eightAm = await london(db, 4, '08:00');
    await book(db, early, await classAt(db, eightAm, 'Early Stretch'));
    expect(await remind(at(eightAm, -30))).toBe(0);
  });

  it('drops a queued reminder whose booking was cancelled', async () => {
    const fickle = await createUser(db, 'push-fickle');
    await subscribe(db, fickle);
    await onlyPushesOf(fickle);
    const sixAm = await london(db, 6, '06:00');
    const booking = await book(db, fickle, await classAt(db, sixAm));
    expect(await asServiceRole(db, (tx) => rpc<number>(tx, 'public.enqueue_push_reminders_at($1)', [at(sixAm, -90)]))).toBe(1);
    await db.query('delete from public.bookings where id = $1', [booking]);
    expect((await dequeue(db, at(sixAm, -60))).filter((p) => p.kind === 'class_reminder')).toEqual([]);
    expect((await queued(db, fickle.memberId))[0]).toMatchObject({ last_error: 'expired: the booking is no longer confirmed' });
  });
});

describe('preferences saved inside the last hour before an early class', () => {
  it('queue the reminder again at once for the lead now chosen: the next run would come after the class', async () => {
    const member = await createUser(db, 'push-changer');
    await subscribe(db, member);
    await onlyPushesOf(member);
    const save = (now: string, minutes: number) =>
      asUser(db, member.claims, (tx) => rpc(tx, 'private.set_push_preferences($1, null, null, $2)', [minutes, now]));
    const remind = (now: string) => asServiceRole(db, (tx) => rpc<number>(tx, 'public.enqueue_push_reminders_at($1)', [now]));
    const reminders = async (now: string) => (await dequeue(db, now)).filter((p) => p.kind === 'class_reminder').map((p) => p.title);
    const due = async () =>
      (await queued(db, member.memberId))
        .filter((p) => p.kind === 'class_reminder' && !p.failed_at)
        .map((p) => p.next_attempt_at.toISOString());
    await save(new Date().toISOString(), 30);

    // 30 minutes before a 6:00 class: the 5:20 run queued it for 5:30; at 5:25 the member picks an
    // hour. 5:00 has passed and the next run (6:20) is after the class: it goes now.
    const sixAm = await london(db, 8, '06:00');
    await book(db, member, await classAt(db, sixAm, 'Sunrise Yoga'));
    expect(await remind(at(sixAm, -40))).toBe(1);
    expect(await due()).toEqual([at(sixAm, -30)]);
    await save(at(sixAm, -35), 60);
    expect(await due()).toEqual([at(sixAm, -35)]);
    expect(await reminders(at(sixAm, -35))).toEqual(['Reminder: Sunrise Yoga at 6:00 AM']);
    expect(await remind(at(sixAm, -20))).toBe(0);

    // Back to 30 minutes; saved again at 5:25 with the lead kept: still due at 5:30, once.
    const nextDay = await london(db, 9, '06:00');
    await save(at(nextDay, -60), 30);
    await book(db, member, await classAt(db, nextDay, 'Dawn Row'));
    expect(await remind(at(nextDay, -40))).toBe(1);
    await save(at(nextDay, -35), 30);
    expect(await remind(at(nextDay, -35))).toBe(0);
    expect(await reminders(at(nextDay, -35))).toEqual([]);
    expect(await reminders(at(nextDay, -30))).toEqual(['Reminder: Dawn Row at 6:00 AM']);
  });
});

describe('a reminder for a booking confirmed between two runs of the jobs', () => {
  it('is queued when the booking is confirmed if due before the next run, sent at once inside the lead time, and only once', async () => {
    const late = await createUser(db, 'push-late-booker');
    await subscribe(db, late);
    const deviceless = await createUser(db, 'push-late-deviceless');
    await db.transaction(async (tx) => {
      // Every class counts as early in this rolled-back transaction, so the test does not depend on
      // the time of day it runs; now() is the transaction's start, as the trigger sees it.
      await tx.query(
        `create or replace function private.push_early_class_before() returns time language sql immutable set search_path = '' as $$ select time '23:59:59.999' $$`,
      );
      const now = new Date((await tx.query<{ now: string }>(`select to_json(now()) #>> '{}' as now`)).rows[0]!.now).toISOString();
      const soonClass = await classAt(tx, at(now, 20), 'Late Spin');
      const withinHour = await classAt(tx, at(now, 100), 'Next Hour Spin');
      const afterNextRun = await classAt(tx, at(now, 180), 'Later Spin');
      await book(tx, late, soonClass);
      await book(tx, late, withinHour);
      await book(tx, late, afterNextRun);
      await book(tx, deviceless, soonClass);
      const { rows } = await tx.query<{ id: string }>(
        `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at)
         values ($1, $2, 'paid', 'pending', now() + interval '10 minutes') returning id`,
        [late.memberId, await classAt(tx, at(now, 40), 'Pending Spin')],
      );

      const rowsNow = await queued(tx, late.memberId);
      expect(rowsNow.map((p) => [p.title.replace(/ at .*/, ''), p.next_attempt_at.toISOString()])).toEqual([
        ['Reminder: Late Spin', now],
        ['Reminder: Next Hour Spin', at(now, 40)],
      ]);
      expect(await queued(tx, deviceless.memberId)).toEqual([]);

      // Paid after a hold: confirmed, so reminded now.
      await tx.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [rows[0]!.id]);
      expect((await queued(tx, late.memberId)).map((p) => p.title.replace(/ at .*/, ''))).toContain('Reminder: Pending Spin');

      // The job finds them queued already; the sender takes the ones due now.
      expect((await tx.query<{ n: number }>('select private.enqueue_push_reminders_at($1) as n', [now])).rows[0]!.n).toBe(0);
      const sent = await tx.query<{ title: string }>('select title from private.dequeue_pushes(50, $1)', [now]);
      expect(sent.rows.map((p) => p.title.replace(/ at .*/, '')).sort()).toEqual(['Reminder: Late Spin', 'Reminder: Pending Spin']);
      await tx.rollback();
    });
  });
});

describe('quiet hours', () => {
  it('holds a push until they end (London time), and drops one whose class starts before they end', async () => {
    const sleeper = await createUser(db, 'push-sleeper', { membership_tier: 'premium' });
    await subscribe(db, sleeper);
    await expectSqlError(
      asUser(db, sleeper.claims, (tx) => rpc(tx, `public.set_push_preferences(60, '22:00', null)`)),
      { hint: 'invalid_quiet_hours' },
    );
    await asUser(db, sleeper.claims, (tx) => rpc(tx, `public.set_push_preferences(60, '22:00', '07:00')`));
    const later = await classAt(db, await london(db, 8, '12:00'), 'Noon Spin');
    const dawn = await classAt(db, await london(db, 8, '06:30'), 'Dawn Spin');
    for (const c of [later, dawn]) await book(db, sleeper, c);
    await db.query(`update public.classes set start_time = start_time + interval '15 minutes' where id = any($1)`, [[later, dawn]]);
    expect((await queued(db, sleeper.memberId)).map((p) => p.kind)).toEqual(['class_moved', 'class_moved']);

    const lateEvening = await london(db, 7, '23:00');
    expect(await dequeue(db, lateEvening)).toEqual([]);
    const rows = await queued(db, sleeper.memberId);
    expect(rows.find((p) => p.title === 'Class moved: Noon Spin')?.next_attempt_at.toISOString()).toBe(await london(db, 8, '07:00'));
    expect(rows.find((p) => p.title === 'Class moved: Dawn Spin')).toMatchObject({
      last_error: 'expired: the class starts before the quiet hours end',
    });
    expect(await dequeue(db, at(await london(db, 8, '07:00'), -1))).toEqual([]);
    expect((await dequeue(db, await london(db, 8, '07:00'))).map((p) => p.title)).toEqual(['Class moved: Noon Spin']);
  });
});

describe('the sender', () => {
  it('retries a failed push with the emails’ backoff; a device that is gone is removed with its queued pushes', async () => {
    const member = await createUser(db, 'push-sender', { membership_tier: 'premium' });
    const gone = await subscribe(db, member);
    await subscribe(db, member);
    const c = await createClass(db, { name: 'Sender Spin', startsIn: '4 days' });
    await book(db, member, c);
    await db.query(`update public.classes set start_time = start_time + interval '1 hour' where id = $1`, [c]);
    const now = soon();
    const taken = (await dequeue(db, now)).filter((p) => p.title === 'Class moved: Sender Spin');
    expect(taken).toHaveLength(2);
    const failed = taken.find((p) => p.endpoint !== gone.endpoint)!;
    const back = await asServiceRole(db, (tx) =>
      rpc<{ status: string; attempts: number }[]>(tx, 'public.requeue_notification($1, $2, $3)', [failed.id, '500 push service down', now]),
    );
    expect(back).toEqual([expect.objectContaining({ status: 'retrying', attempts: 1 })]);
    expect(await dequeue(db, now)).toEqual([]);
    expect((await dequeue(db, at(now, 1))).map((p) => p.id)).toEqual([failed.id]);

    const goneId = taken.find((p) => p.endpoint === gone.endpoint)!.subscription_id;
    expect(await asServiceRole(db, (tx) => rpc<boolean>(tx, 'public.remove_gone_push_subscription($1)', [goneId]))).toBe(true);
    expect(await asServiceRole(db, (tx) => rpc<boolean>(tx, 'public.remove_gone_push_subscription($1)', [goneId]))).toBe(false);
    const { rows } = await db.query('select 1 from public.push_outbox where subscription_id = $1', [goneId]);
    expect(rows).toEqual([]);
  });

  it('keeps sending to the service role', async () => {
    const member = await createUser(db, 'push-refused');
    for (const sql of [
      `public.dequeue_pushes(now())`,
      `public.requeue_notification(gen_random_uuid(), 'x', now())`,
      'public.remove_gone_push_subscription(gen_random_uuid())',
      'public.enqueue_push_reminders_at(now())',
    ]) {
      await expectSqlError(
        asUser(db, member.claims, (tx) => rpc(tx, sql)),
        { code: '42501' },
      );
      await expectSqlError(
        asAnon(db, (tx) => rpc(tx, sql)),
        { code: '42501' },
      );
    }
  });
});
