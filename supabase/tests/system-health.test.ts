import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// System health (decision 0046): each job run is recorded; the watchdog, as of a given time, opens
// an alert per cause, emails the studio once when it opens, and clears it when the cause has gone.

let db: Database;
let admin: TestUser;
let member: TestUser;

const T0 = new Date('2031-03-03T09:00:00Z').getTime();
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

const service = <T>(sql: string, params: unknown[]) => asUser(db, { role: 'service_role' }, (tx) => rpc<T>(tx, sql, params));

async function run(job: 'hourly' | 'emails' | 'pushes', minutes: number, succeeded = true, summary = 'ok') {
  const id = await service<number>('public.start_job_run($1, $2)', [job, at(minutes)]);
  await service('public.finish_job_run($1, $2, $3, $4)', [id, at(minutes), succeeded, summary]);
}

/** The email delivery runs: everything queued goes, and the run is recorded. */
async function deliverAll(minutes: number) {
  await db.query(
    `update public.notification_deliveries set sent_at = $1 where channel = 'email' and sent_at is null and failed_at is null`,
    [at(minutes)],
  );
  await run('emails', minutes);
}

const watchdog = (minutes: number) => service<number>('public.check_system_health($1)', [at(minutes)]);

async function openAlerts(): Promise<string[]> {
  const { rows } = await db.query<{ cause: string }>('select cause from public.system_alerts where cleared_at is null order by cause');
  return rows.map((r) => r.cause);
}

async function alertEmails(): Promise<{ to_email: string; subject: string; body_text: string }[]> {
  const { rows } = await db.query<{ to_email: string; subject: string; body_text: string }>(
    `select to_email, subject, body_text from public.notification_outbox where kind = 'system_alert' order by created_at, subject`,
  );
  return rows;
}

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'health-admin', { is_admin: true });
  member = await createUser(db, 'health-member');
});
afterAll(async () => {
  await db.close();
});

describe('the hourly job stopping', () => {
  it('opens one alert and one email to the studio, then clears when the job runs again', async () => {
    await run('hourly', 0);
    expect(await watchdog(60)).toBe(0);
    expect(await watchdog(119)).toBe(0);
    // Two hours without a successful run: the job stopped.
    expect(await watchdog(121)).toBe(1);
    expect(await openAlerts()).toEqual(['missed:hourly']);
    // The watchdog runs again (every hour, and whenever an admin opens the portal): no second email.
    expect(await watchdog(150)).toBe(1);
    expect(await watchdog(180)).toBe(1);
    const emails = await alertEmails();
    expect(emails).toHaveLength(1);
    expect(emails[0]!.to_email).toBe('hello@finerfitness.example');
    expect(emails[0]!.subject).toMatch(/^System alert: The hourly jobs \(renewals, reminders, no-shows\) have not completed since /);
    expect(emails[0]!.body_text).toContain('It clears itself once the cause has gone');

    // Fixed: the next run succeeds and the alert clears.
    await run('hourly', 185);
    expect(await watchdog(186)).toBe(0);
    expect(await openAlerts()).toEqual([]);
    const { rows } = await db.query<{ cleared_at: Date }>(`select cleared_at from public.system_alerts where cause = 'missed:hourly'`);
    expect(rows.map((r) => r.cleared_at.toISOString())).toEqual([at(186)]);

    // A later stop is a new alert, emailed once more.
    expect(await watchdog(185 + 121)).toBe(1);
    expect(await alertEmails()).toHaveLength(2);
    await run('hourly', 310);
    expect(await watchdog(311)).toBe(0);
  });
});

describe('other causes', () => {
  it('a job failing twice running, until it succeeds', async () => {
    await run('emails', 400, false, 'SMTP refused the login');
    expect(await watchdog(400)).toBe(0);
    await run('emails', 401, false, 'SMTP refused the login');
    expect(await watchdog(401)).toBe(1);
    expect(await openAlerts()).toEqual(['failing:emails']);
    const last = (await alertEmails()).at(-1)!;
    expect(last.subject).toMatch(/^System alert: The email delivery failed twice running, last at .*: SMTP refused the login$/);
    await run('emails', 402);
    expect(await watchdog(402)).toBe(0);
  });

  it('queued mail with no email delivery run in 10 minutes', async () => {
    await run('hourly', 405);
    await deliverAll(410);
    await db.query(
      `select private.enqueue_email('studio_message', 'someone@example.test', null, null, null, 'Hello', 'Hi', '[]', null, null, $1)`,
      [at(410)],
    );
    expect(await watchdog(415)).toBe(0);
    expect(await watchdog(421)).toBe(1);
    expect(await openAlerts()).toEqual(['missed:emails']);
    await deliverAll(422);
    expect(await watchdog(423)).toBe(0);
  });

  it('emails given up on, and payment notifications that could not be applied', async () => {
    const { rows: queued } = await db.query<{ id: string }>(
      `select private.enqueue_email('studio_message', 'bounce@example.test', null, null, null, 'Bounced', 'Hi', '[]', null) as id`,
    );
    await db.query(
      `update public.notification_deliveries set attempts = 5, last_error = '550 no such user', failed_at = $2 where id = $1`,
      [queued[0]!.id, at(500)],
    );
    await service('public.record_payment_notification($1, $2, $3, $4, $5)', ['chk_123', false, 'unknown_reference', 'no payment', at(500)]);
    await run('hourly', 495);
    await run('emails', 500);
    expect(await watchdog(501)).toBe(2);
    expect(await openAlerts()).toEqual(['emails_failed', 'payments_unapplied']);
    // The provider retries and the notification applies; a day later the failed email is old news.
    await deliverAll(505);
    await service('public.record_payment_notification($1, $2, $3, $4, $5)', ['chk_123', true, '', '', at(510)]);
    expect(await watchdog(511)).toBe(1);
    await run('hourly', 24 * 60 + 400);
    await deliverAll(24 * 60 + 500);
    expect(await watchdog(24 * 60 + 501)).toBe(0);
  });
});

describe('who may run it and read it', () => {
  it('an admin runs the watchdog from the portal and reads runs and alerts; members may not', async () => {
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_check_system_health()'));
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_check_system_health()')),
      { code: '42501', hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.start_job_run($1, $2)', ['hourly', at(0)])),
      { code: '42501' },
    );
    const count = (user: TestUser, table: string) =>
      asUser(db, user.claims, async (tx) => (await tx.query<{ n: number }>(`select count(*)::int as n from public.${table}`)).rows[0]!.n);
    expect(await count(admin, 'job_runs')).toBeGreaterThan(0);
    expect(await count(admin, 'system_alerts')).toBeGreaterThan(0);
    expect(await count(member, 'job_runs')).toBe(0);
    expect(await count(member, 'system_alerts')).toBe(0);
  });
});

describe('the outside check (the health endpoint an uptime monitor calls)', () => {
  type JobHealth = {
    job: string;
    last_started_at: string | null;
    last_outcome: string | null;
    last_succeeded_at: string | null;
    overdue: boolean;
  };
  const health = async (minutes: number) => {
    const rows = await service<JobHealth[]>('public.job_health($1)', [at(minutes)]);
    return Object.fromEntries(rows.map((r) => [r.job, r]));
  };
  // Long after the runs above, so only this test's runs are the latest.
  const BASE = 10 * 24 * 60;

  it("says each job's latest run and success, and whether the watchdog finds it overdue, writing nothing", async () => {
    await run('hourly', BASE);
    await deliverAll(BASE);
    const alertsBefore = await openAlerts();
    const fine = await health(BASE + 30);
    expect(Object.keys(fine)).toEqual(['hourly', 'emails', 'pushes']);
    expect(fine.hourly).toMatchObject({ last_outcome: 'succeeded', overdue: false });
    expect(new Date(fine.hourly!.last_started_at!).toISOString()).toBe(at(BASE));
    expect(fine.emails).toMatchObject({ last_outcome: 'succeeded', overdue: false });

    // Two hours without a successful hourly run: overdue, even with nobody opening the portal.
    const late = await health(BASE + 121);
    expect(late.hourly).toMatchObject({ last_outcome: 'succeeded', overdue: true });
    // A run that fails twice running is failing too; a good one makes it healthy again.
    await run('hourly', BASE + 122, false, 'provider key expired');
    await run('hourly', BASE + 123, false, 'provider key expired');
    const failing = await health(BASE + 124);
    expect(failing.hourly).toMatchObject({ last_outcome: 'failed', overdue: true });
    expect(new Date(failing.hourly!.last_succeeded_at!).toISOString()).toBe(at(BASE));
    await run('hourly', BASE + 125);
    expect((await health(BASE + 126)).hourly).toMatchObject({ last_outcome: 'succeeded', overdue: false });
    expect(await openAlerts(), 'reading it opens and clears nothing').toEqual(alertsBefore);

    // The service role only: the endpoint holds the key; no browser asks it.
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.job_health($1)', [at(BASE)])),
      { code: '42501' },
    );
  });
});
