import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, rpc, type TestUser } from './support/fixtures.ts';

// The generated year of history (supabase/seeds/history.sql, `npm run db:seed:history`)
// gives sensible reports, and every money and count figure is recomputed here from the raw rows
// by other means (plain selects, summed in TypeScript), not by the report functions' SQL.

let db: Database;
let admin: TestUser;
let reports: Record<string, Record<string, number | string | null>[]>;
let from: string;
let to: string;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'year-admin', { is_admin: true, membership_tier: 'premium' });
  await db.exec(readFileSync(new URL('../seeds/history.sql', import.meta.url), 'utf8'));
  const { rows } = await db.query<{ from: string; to: string }>(
    `select to_char((now() at time zone 'Europe/London')::date - 364, 'YYYY-MM-DD') as from, to_char((now() at time zone 'Europe/London')::date, 'YYYY-MM-DD') as to`,
  );
  ({ from, to } = rows[0]!);
  reports = await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_reports($1, $2)', [from, to]));
}, 300_000);
afterAll(async () => {
  await db.close();
});

const totalRow = (name: string) => reports[name]!.filter((r) => r.month === null);
const londonStart = (day: string) => `('${day}'::date::timestamp at time zone 'Europe/London')`;
const londonEnd = (day: string) => `(('${day}'::date + 1)::timestamp at time zone 'Europe/London')`;

describe('a generated year of history', () => {
  it('adds members, payments, classes and bookings', async () => {
    const { rows } = await db.query<{ members: number; bookings: number }>(
      `select (select count(*)::int from public.members where email like 'history-%') as members,
              (select count(*)::int from public.bookings b join public.members m on m.id = b.member_id where m.email like 'history-%') as bookings`,
    );
    expect(rows[0]!.members).toBe(150);
    expect(rows[0]!.bookings).toBeGreaterThan(5000);
  });

  it('revenue by line equals the payments less the refunds, summed here', async () => {
    const { rows: paid } = await db.query<{ kind: string; category: string | null; amount: string }>(
      `select p.kind, pl.category, p.amount::text from public.payments p left join public.plans pl on pl.slug = p.plan_slug
        where p.status = 'paid' and p.paid_at >= ${londonStart(from)} and p.paid_at < ${londonEnd(to)}`,
    );
    const { rows: back } = await db.query<{ kind: string | null; category: string | null; amount: string }>(
      `select p.kind, pl.category, r.amount::text from public.refunds_owed r left join public.payments p on p.id = r.payment_id
         left join public.plans pl on pl.slug = p.plan_slug
        where r.refunded_at >= ${londonStart(from)} and r.refunded_at < ${londonEnd(to)}`,
    );
    const lineOf = (r: { kind: string | null; category: string | null }) =>
      r.kind === 'class' ? 'classes' : r.category === 'training' ? 'packages' : 'memberships';
    const pence = (rows: { kind: string | null; category: string | null; amount: string }[], line: string) =>
      rows.filter((r) => lineOf(r) === line).reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    for (const line of ['memberships', 'classes', 'packages']) {
      const row = totalRow('revenue').find((r) => r.line === line)!;
      expect(Math.round(Number(row.gross) * 100), line).toBe(pence(paid, line));
      expect(Math.round(Number(row.net) * 100), line).toBe(pence(paid, line) - pence(back, line));
      expect(Number(row.gross), line).toBeGreaterThan(0);
    }
    const monthly = reports
      .revenue!.filter((r) => r.month !== null && r.line === 'memberships')
      .reduce((s, r) => s + Math.round(Number(r.net) * 100), 0);
    expect(monthly).toBe(pence(paid, 'memberships') - pence(back, 'memberships'));
  });

  it('attendance and fill match the bookings counted here, and the rates are sensible', async () => {
    const { rows } = await db.query<{ attendance: string | null; n: number }>(
      `select b.attendance::text, count(*)::int as n from public.bookings b join public.classes c on c.id = b.class_id
        where b.payment_status = 'completed' and c.start_time >= ${londonStart(from)} and c.start_time < least(${londonEnd(to)}, now())
        group by 1`,
    );
    const count = (a: string | null) => rows.find((r) => r.attendance === a)?.n ?? 0;
    const total = totalRow('attendance')[0]!;
    expect(total.bookings).toBe(rows.reduce((s, r) => s + r.n, 0));
    expect(total.attended).toBe(count('attended'));
    expect(total.no_shows).toBe(count('no_show'));
    expect(Number(total.no_show_rate)).toBeGreaterThan(5);
    expect(Number(total.no_show_rate)).toBeLessThan(20);
    expect(Number(total.late_cancel_rate)).toBeGreaterThan(1);
    expect(Number(total.late_cancel_rate)).toBeLessThan(10);

    const fill = reports.fill!;
    expect(fill.reduce((s, r) => s + Number(r.classes), 0)).toBeGreaterThan(1000);
    const saturday = fill.find((r) => r.weekday === 6 && r.slot === '09:00')!;
    const earlyFriday = fill.find((r) => r.weekday === 5 && r.slot === '10:00')!;
    expect(Number(saturday.fill_rate)).toBeGreaterThan(Number(earlyFriday.fill_rate));
  });

  it('MRR moves by its parts every month, churn and conversion are sensible', () => {
    for (const r of reports.mrr!) {
      const moved = Number(r.mrr_start) + Number(r.new_mrr) + Number(r.upgrades) - Number(r.downgrades) - Number(r.churned);
      expect(Math.round(moved * 100), String(r.month)).toBe(Math.round(Number(r.mrr_end) * 100));
    }
    const total = totalRow('mrr')[0]!;
    expect(Number(total.mrr_end)).toBeGreaterThan(1000);
    expect(Number(total.new_mrr)).toBeGreaterThan(0);
    const monthly = reports.mrr!.filter((r) => r.month !== null && Number(r.subscribers_start) > 10);
    for (const r of monthly) expect(Number(r.churn_rate), String(r.month)).toBeLessThan(30);
    const trials = totalRow('trials')[0]!;
    expect(Number(trials.trials_ended)).toBeGreaterThan(50);
    expect(Number(trials.conversion_rate)).toBeGreaterThan(15);
    expect(Number(trials.conversion_rate)).toBeLessThan(70);
  });

  it('MRR at every month end is the Memberships card at that instant, and the prices summed here from the charges', async () => {
    // In one transaction, so the month not over yet ends at the same now() for the report and the card.
    const { rows, cards } = await asUser(db, admin.claims, async (tx) => {
      const all = await rpc<{ mrr: { month: string | null; mrr_end: number; subscribers_end: number }[] }>(
        tx,
        'public.admin_reports($1, $2)',
        [from, to],
      );
      const months = all.mrr.filter((r) => r.month !== null);
      const cards: { ms: number; mrr: number; members: number }[] = [];
      for (const r of months) {
        const { rows: end } = await tx.query<{ at: string; ms: number }>(
          `select e.at::text as at, floor(extract(epoch from e.at) * 1000)::float8 as ms
             from (select least((($1::date + interval '1 month')::timestamp at time zone 'Europe/London') - interval '1 microsecond',
                                (($2::date + 1)::timestamp at time zone 'Europe/London') - interval '1 microsecond', now()) as at) e`,
          [r.month, to],
        );
        const card = await rpc<{ mrr: number; active_standard: number; active_premium: number }>(tx, 'public.admin_membership_stats($1)', [
          end[0]!.at,
        ]);
        cards.push({ ms: end[0]!.ms, mrr: Number(card.mrr), members: card.active_standard + card.active_premium });
      }
      return { rows: months, cards };
    });
    expect(cards.map((c) => c.mrr)).toEqual(rows.map((r) => Number(r.mrr_end)));
    expect(cards.map((c) => c.members)).toEqual(rows.map((r) => r.subscribers_end));

    // By other means: each membership's latest charge at or before the instant (the generated
    // upgrades are charged in full), while it runs (a cancelled one until the end of its last month).
    const { rows: charges } = await db.query<{ membership_id: string; paid_at: Date; amount: string }>(
      `select p.membership_id, p.paid_at, p.amount::text from public.payments p
        where p.membership_id is not null and p.status = 'paid' and p.checkout_reference like 'history-%' order by p.paid_at`,
    );
    const { rows: memberships } = await db.query<{ id: string; status: string; period_end: Date }>(
      `select ms.id, ms.status::text, ms.period_end from public.memberships ms join public.members m on m.id = ms.member_id
        where m.email like 'history-%'`,
    );
    const endOf = new Map(memberships.map((m) => [m.id, m.status === 'cancelled' ? m.period_end.getTime() : Infinity]));
    const penceAt = (at: number) => {
      const latest = new Map<string, number>();
      for (const c of charges) if (c.paid_at.getTime() <= at) latest.set(c.membership_id, Math.round(Number(c.amount) * 100));
      return [...latest].filter(([id]) => at < endOf.get(id)!).reduce((sum, [, pence]) => sum + pence, 0);
    };
    // The other members of this database (the admin) hold no membership.
    expect(cards.map((c) => Math.round(c.mrr * 100))).toEqual(cards.map((c) => penceAt(c.ms)));
    expect(Math.max(...cards.map((c) => c.mrr))).toBeGreaterThan(1000);
  });
});
