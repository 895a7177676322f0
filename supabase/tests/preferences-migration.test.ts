import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, listMigrations } from '../local/db/apply.ts';
import { openDatabase, type Database } from '../local/db/open-database.ts';

// One model of preferences (decision 0091): email and push moved from email_preferences and
// push_preferences' switches to notification_preferences. This builds the database as it was just
// before, with members who had turned things off (and one who never chose), applies the migration
// and checks that every member still gets exactly what they had chosen, by the one rule.

const ONE_MODEL = '20261227000100';

let db: Database;
let dir: string;
const ids = {
  untouched: '00000000-0000-4000-8000-000000000101',
  noReminders: '00000000-0000-4000-8000-000000000102',
  pushChooser: '00000000-0000-4000-8000-000000000103',
  consentedNoWinBack: '00000000-0000-4000-8000-000000000104',
};

beforeAll(async () => {
  dir = mkdtempSync(`${tmpdir()}/before-one-model-`);
  for (const m of listMigrations().filter((m) => m.version < ONE_MODEL)) copyFileSync(m.path, `${dir}/${m.version}_${m.name}.sql`);
  db = await openDatabase({ dataDir: 'memory' });
  await applyPlatform(db);
  await applyMigrations(db, dir);

  for (const [name, id] of Object.entries(ids)) {
    await db.query(`insert into public.members (id, email, name) values ($1, $2, $3)`, [id, `${name}@example.test`, name]);
  }
  await db.query(`insert into public.email_preferences (member_id, class_reminders) values ($1, false)`, [ids.noReminders]);
  await db.query(
    `insert into public.push_preferences (member_id, waitlist_promoted, class_changes, studio_closures, payment_failed, reminder_minutes, quiet_from, quiet_until)
     values ($1, false, false, true, true, null, '22:00', '07:00')`,
    [ids.pushChooser],
  );
  await db.query(
    `insert into public.marketing_consents (member_id, granted, wording, source) values ($1, true, 'Send me news and offers', 'sign_up')`,
    [ids.consentedNoWinBack],
  );
  await db.query(
    `insert into public.email_preferences (member_id, win_back) values ($1, false) on conflict (member_id) do update set win_back = false`,
    [ids.consentedNoWinBack],
  );

  await applyMigrations(db);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const wanted = async (member: string, channel: string, type: string) =>
  (await db.query<{ w: boolean }>('select private.notification_wanted($1, $2, $3) as w', [member, channel, type])).rows[0]!.w;

describe('the move to one model of preferences', () => {
  it("keeps every member's email choices", async () => {
    expect(await wanted(ids.untouched, 'email', 'class_reminder')).toBe(true);
    expect(await wanted(ids.noReminders, 'email', 'class_reminder')).toBe(false);
    // Emails that are the record of a booking always go.
    expect(await wanted(ids.noReminders, 'email', 'booking_confirmed')).toBe(true);
    // Marketing: consent and the come-back emails turned off stay off; other news follows consent.
    expect(await wanted(ids.consentedNoWinBack, 'email', 'win_back')).toBe(false);
    expect(await wanted(ids.consentedNoWinBack, 'email', 'marketing_announcement')).toBe(true);
    expect(await wanted(ids.untouched, 'email', 'win_back')).toBe(false);
  });

  it("keeps every member's push choices, and when pushes come", async () => {
    const pushes = async (member: string) =>
      Object.fromEntries(
        await Promise.all(
          [
            'waitlist_promoted',
            'class_cancelled',
            'class_moved',
            'class_changed',
            'studio_closure',
            'payment_failed',
            'class_reminder',
          ].map(async (t) => [t, await wanted(member, 'push', t)] as const),
        ),
      );
    expect(await pushes(ids.pushChooser)).toEqual({
      waitlist_promoted: false,
      class_cancelled: false,
      class_moved: false,
      class_changed: false,
      studio_closure: true,
      payment_failed: true,
      class_reminder: false,
    });
    expect(Object.values(await pushes(ids.untouched)).every(Boolean)).toBe(true);
    const { rows } = await db.query('select quiet_from::text, quiet_until::text from public.push_preferences where member_id = $1', [
      ids.pushChooser,
    ]);
    expect(rows).toEqual([{ quiet_from: '22:00:00', quiet_until: '07:00:00' }]);
  });

  it('leaves no old switch to read', async () => {
    const { rows } = await db.query<{ column_name: string }>(
      `select column_name from information_schema.columns
        where table_schema = 'public' and table_name in ('email_preferences', 'push_preferences') order by table_name, column_name`,
    );
    expect(rows.map((r) => r.column_name)).toEqual([
      'member_id',
      'unsubscribe_token',
      'updated_at',
      'member_id',
      'quiet_from',
      'quiet_until',
      'reminder_minutes',
      'updated_at',
    ]);
  });
});
