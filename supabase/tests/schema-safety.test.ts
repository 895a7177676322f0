import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, listMigrations } from '../local/db/apply.ts';
import { openDatabase, type Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { dataWrites } from './support/data-writes.ts';

// Properties of the whole schema (every migration, the payments one included), checked in the
// catalogue so a new table or function cannot quietly skip them.

describe('migrations', () => {
  it('apply cleanly to a fresh database, and a second run is a no-op via the history table', async () => {
    const db = await openDatabase({ dataDir: 'memory' });
    try {
      const all = listMigrations().map((m) => `${m.version}_${m.name}`);
      await applyPlatform(db);
      expect(await applyMigrations(db)).toEqual({ applied: all, skipped: [] });
      await applyPlatform(db);
      expect(await applyMigrations(db)).toEqual({ applied: [], skipped: all });
      const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version');
      expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    } finally {
      await db.close();
    }
  });
});

describe('schema safety', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('has row-level security on every table in an exposed or storage schema', async () => {
    const { rows } = await db.query(
      `select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'storage') and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });

  it('has no view in public that would bypass RLS', async () => {
    const { rows } = await db.query(
      `select c.relname from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')
          and not coalesce('security_invoker=true' = any (c.reloptions), false)`,
    );
    expect(rows).toEqual([]);
  });

  /** auth.jwt(), uid(), role(), email(): GoTrue's own (supabase/local/platform.sql stands in for them). */
  const GOTRUE_CLAIM_HELPERS = ['jwt', 'uid', 'role', 'email'];

  it('has a fixed search_path on every function of ours, and an empty one in public and private', async () => {
    const { rows } = await db.query<{ schema: string; fn: string; config: string[] | null }>(
      `select n.nspname as schema, p.proname as fn, p.proconfig as config from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private', 'auth', 'storage')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    expect(rows.filter((r) => r.schema === 'public' || r.schema === 'private').length).toBeGreaterThan(40);
    for (const r of rows) {
      const path = (r.config ?? []).find((c) => c.startsWith('search_path='));
      // GoTrue's claim helpers are the platform's, declared as hosted declares them: without
      // settings, so PostgreSQL inlines them into the policies and functions that call them.
      if (r.schema === 'auth' && GOTRUE_CLAIM_HELPERS.includes(r.fn)) {
        expect(r.config, `auth.${r.fn}`).toBeNull();
        continue;
      }
      expect(path, `${r.schema}.${r.fn}`).toBeDefined();
      if (r.schema === 'public' || r.schema === 'private') expect(path, `${r.schema}.${r.fn}`).toBe('search_path=""');
    }
  });

  it('has a WHERE on every DELETE and UPDATE in a function body (hosted loads pg-safeupdate)', async () => {
    const { rows } = await db.query<{ fn: string; source: string }>(
      `select n.nspname || '.' || p.proname as fn, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and p.prolang in (select oid from pg_language where lanname in ('sql', 'plpgsql'))`,
    );
    const writes = rows.flatMap((r) => dataWrites(r.source).map((w) => ({ fn: r.fn, ...w })));
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter((w) => !w.guarded)).toEqual([]);
  });

  it('has no write policy that lets everyone through (using/with check true)', async () => {
    const { rows } = await db.query(
      `select schemaname, tablename, policyname, cmd, qual, with_check from pg_policies
        where cmd <> 'SELECT'
          and (qual = 'true' or with_check = 'true' or (qual is null and with_check is null))`,
    );
    expect(rows).toEqual([]);
  });

  it('lets anon execute no function in public, and authenticated only the member RPCs', async () => {
    const callable = async (role: string) =>
      (
        await db.query<{ proname: string }>(
          `select p.proname from pg_proc p
            where p.pronamespace = 'public'::regnamespace and has_function_privilege($1, p.oid, 'execute')
              and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
            order by 1`,
          [role],
        )
      ).rows.map((r) => r.proname);
    // Guests read the schedule (with a guest's facts); nothing else.
    // A guest reads and cancels their own place, and reads and signs the waiver, with the token from their email (decision 0031).
    expect(await callable('anon')).toEqual([
      'cancel_guest_place',
      'class_schedule',
      'class_schedule_summary',
      'gift_voucher_options',
      'guest_place_by_token',
      'guest_waiver',
      'sign_guest_waiver',
      'submit_contact_message',
    ]);
    expect(await callable('authenticated')).toEqual([
      'accept_cover',
      'add_guest',
      'add_studio_closure',
      'admin_book_one_to_one',
      'admin_bookings_search',
      'admin_bookings_total',
      'admin_check_system_health',
      'admin_class_places',
      'admin_coach_pay_statement',
      'admin_cover_auto_approve',
      'admin_cover_requests',
      'admin_create_intro_offer',
      'admin_create_promo_code',
      'admin_credits_outstanding',
      'admin_data_retention',
      'admin_delete_member',
      'admin_direct_debit_chargebacks',
      'admin_email_member',
      'admin_end_offer',
      'admin_extend_gift_voucher',
      'admin_gift_vouchers',
      'admin_grant_credits',
      'admin_import_members',
      'admin_member_documents',
      'admin_member_removal_target',
      'admin_members_to_invite',
      'admin_membership_stats',
      'admin_money_held',
      'admin_move_session',
      'admin_offer_report',
      'admin_put_on_plan',
      'admin_record_contact',
      'admin_refund_package',
      'admin_reports',
      'admin_review_request_settings',
      'admin_revoke_credit',
      'admin_set_attendance_policy',
      'admin_set_data_retention',
      'admin_set_gift_voucher_settings',
      'admin_set_pause_rules',
      'admin_set_referral_settings',
      'admin_settle_chargeback',
      'admin_stats',
      'admin_swap_coach',
      'admin_trainer_accounts',
      'admin_uncovered_sessions',
      'admin_waive_attendance',
      'approve_cover',
      'attendance_incidents_of',
      'begin_provider_refund',
      'book_class',
      'book_family',
      'book_with_credit',
      'cancel_announcement',
      'cancel_booking',
      'cancel_guest_place',
      'cancel_membership',
      'check_in_with_code',
      'claim_referral',
      'class_schedule',
      'class_schedule_summary',
      'close_my_account',
      'coach_class_roster',
      'coach_classes',
      'coach_cover_requests',
      'coach_mark_attendance',
      'confirm_pause',
      'create_announcement',
      'current_pause',
      'end_pause',
      'ensure_member',
      'finish_provider_refund',
      'gift_voucher_options',
      'guest_place_by_token',
      'guest_waiver',
      'join_waitlist',
      'keep_current_plan',
      'leave_waitlist',
      'link_trainer_account',
      'mark_attendance',
      'mark_contact_message_handled',
      'mark_refund_refunded',
      'members_to_contact',
      'my_attendance_standing',
      'my_balance',
      'my_balance_cover',
      'my_balance_history',
      'my_billing',
      'my_billing_history',
      'my_bookings',
      'my_coach_pay_statement',
      'my_coach_profile',
      'my_credit_for_class',
      'my_data_export',
      'my_dependants',
      'my_documents',
      'my_guest_options',
      'my_hold_checkout',
      'my_intro_offers',
      'my_membership',
      'my_notification_preferences',
      'my_offer_price',
      'my_plan_usage',
      'my_referral',
      'my_upgrade_quote',
      'my_waitlist',
      'paid_bookings_affected',
      'paid_bookings_in_period',
      'personal_training_slots',
      'preview_announcement',
      'preview_pause',
      'publish_document',
      'publish_one_to_one_slots',
      'redeem_gift_voucher',
      'regenerate_timetable',
      'remove_dependant',
      'remove_guest',
      'remove_studio_closure',
      'request_cover',
      'resume_membership',
      'retry_email',
      'revoke_calendar_token',
      'rotate_calendar_token',
      'save_dependant',
      'save_push_subscription',
      'set_billing_method',
      'set_coach_pay_rate',
      'set_cover_auto_approve',
      'set_marketing_consent',
      'set_notification_preference',
      'set_push_preferences',
      'set_review_request_settings',
      'set_sms_number',
      'sign_documents',
      'sign_for_dependant',
      'sign_guest_waiver',
      'submit_contact_message',
      'timetable_preview',
      'todays_door_code',
      'undelivered_emails',
      'unlink_trainer_account',
      'withdraw_cover_request',
      'withdraw_health_answers',
    ]);
  });

  it('answers every RPC with a declared type: no public function returns json (data contract, Row types)', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prorettype in ('json'::regtype, 'jsonb'::regtype)
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by 1`,
    );
    expect(rows).toEqual([]);
  });

  it('exposes no SECURITY DEFINER function: public functions run as the caller and call private code', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prosecdef
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    expect(rows).toEqual([]);
  });

  it('lets authenticated execute only the private functions its RPCs call, and the helpers of its policies', async () => {
    const { rows } = await db.query<{ schema: string; proname: string; source: string; callable: boolean; definer: boolean }>(
      `select n.nspname as schema, p.proname, p.prosrc as source, has_function_privilege('authenticated', p.oid, 'execute') as callable,
              p.prosecdef as definer
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    const callees = (source: string) => [...source.matchAll(/\bprivate\.(\w+)\s*\(/g)].map((m) => m[1]!);
    // What the RPCs call, and what those call in turn while still running as the caller (a
    // SECURITY DEFINER function's own calls run as its owner and need no grant).
    const calledByRpcs = new Set(rows.filter((r) => r.schema === 'public' && r.callable).flatMap((r) => callees(r.source)));
    for (let grew = true; grew;) {
      grew = false;
      for (const r of rows) {
        if (r.schema !== 'private' || r.definer || !calledByRpcs.has(r.proname)) continue;
        for (const name of callees(r.source).filter((n) => !calledByRpcs.has(n))) {
          calledByRpcs.add(name);
          grew = true;
        }
      }
    }
    // Row-level security, column defaults and check constraints run as the caller too.
    const policyHelpers = [
      'current_member_id',
      'is_admin',
      'is_own_avatar',
      'default_late_cancel_window',
      'default_waitlist_closes_before',
      'is_phone_number',
      'is_timetable_slot',
    ];
    const reachable = rows.filter((r) => r.schema === 'private' && r.callable).map((r) => r.proname);
    expect(reachable.filter((name) => !calledByRpcs.has(name) && !policyHelpers.includes(name))).toEqual([]);
  });

  it('lets anon reach only the schedule helpers in the private schema', async () => {
    // The API exposes only `public`; usage of `private` lets the guest schedule's and Contact Us's
    // invoker functions call their definer helpers, and a guest's cancel and waiver links their own.
    // Every other private function stays out of anon's reach.
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p
        where p.pronamespace = 'private'::regnamespace and has_function_privilege('anon', p.oid, 'execute')
        order by 1`,
    );
    expect(rows.map((r) => r.proname)).toEqual([
      'cancel_guest_place',
      'class_schedule',
      'gift_voucher_options',
      'guest_place_by_token',
      'guest_waiver',
      'like_pattern',
      'schedule_matches',
      'sign_guest_waiver',
      'submit_contact_message',
    ]);
  });

  it('publishes classes and bookings to realtime', async () => {
    const { rows } = await db.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' order by 1`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(['bookings', 'classes']));
  });
});
