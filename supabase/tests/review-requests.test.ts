import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Review requests (supabase/schemas/28_review_requests.sql, decision 0088): the member's Nth
// attended class brings one email with the studio's review link, the same words for everyone,
// at most once in M months; turned off by the member's preference; the job is idempotent.

let db: Database;
let admin: TestUser;
const REVIEW_URL = 'https://g.page/r/finer-fitness-example/review';

const as = <T>(u: TestUser, call: string, params: unknown[] = []) => asUser(db, u.claims, (tx) => rpc<T>(tx, call, params));
const send = async (at: string) => (await db.query<{ n: number }>('select private.send_review_requests_at($1) as n', [at])).rows[0]!.n;
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

/** A class `startsIn` (an interval, in the past) the member attended. */
async function attended(member: TestUser, startsIn: string, name = 'Reviewed Yoga') {
  const classId = await createClass(db, { name, startsIn });
  await db.query(`insert into public.bookings (member_id, class_id, type, attendance) values ($1, $2, 'paid', 'attended')`, [
    member.memberId,
    classId,
  ]);
  return classId;
}

async function requests(member: TestUser) {
  const { rows } = await db.query<{ subject: string; body_text: string; links: { path: string }[]; class_id: string }>(
    `select d.subject, d.body_text, d.links, e.class_id from public.notification_deliveries d
       join public.notification_events e on e.id = d.event_id
      where e.type = 'review_request' and e.member_id = $1 and d.channel = 'email' order by d.created_at`,
    [member.memberId],
  );
  return rows;
}

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'review-admin', { is_admin: true });
});
beforeEach(async () => {
  await as(admin, 'public.set_review_request_settings($1, $2, $3)', [3, 6, REVIEW_URL]);
});
afterAll(async () => {
  await db.close();
});

describe('the studio’s settings', () => {
  it('are saved whole by an admin, and bad input is refused and changes nothing', async () => {
    const member = await createUser(db, 'review-not-admin');
    await expectSqlError(as(member, 'public.set_review_request_settings($1, $2, $3)', [3, 6, REVIEW_URL]), { hint: 'not_admin' });
    await expectSqlError(as(admin, 'public.set_review_request_settings($1, $2, $3)', [0, 6, REVIEW_URL]), {
      hint: 'invalid_review_settings',
    });
    await expectSqlError(as(admin, 'public.set_review_request_settings($1, $2, $3)', [3, 30, REVIEW_URL]), {
      hint: 'invalid_review_settings',
    });
    await expectSqlError(as(admin, 'public.set_review_request_settings($1, $2, $3)', [3, 6, 'javascript:alert(1)']), {
      hint: 'invalid_review_settings',
    });
    await expectSqlError(as(admin, 'public.set_review_request_settings($1, $2, $3)', [3, 6, '']), { hint: 'invalid_review_settings' });
    expect(await as(admin, 'public.admin_review_request_settings()')).toEqual({
      after_classes: 3,
      once_in_months: 6,
      review_url: REVIEW_URL,
    });
  });
});

describe('a member reaching the Nth attended class', () => {
  it('gets one review request, whatever they attended, with the same words and link as everyone', async () => {
    const mia = await createUser(db, 'review-mia', {}, { full_name: 'Mia Hart' });
    const leo = await createUser(db, 'review-leo', {}, { full_name: 'Leo Stone' });
    await attended(mia, '-20 days', 'Pilates');
    await attended(mia, '-10 days', 'HIIT');
    await attended(leo, '-9 days', 'Yoga');
    await attended(leo, '-8 days', 'Yoga');
    // Two classes each: not yet.
    expect(await send(days(0))).toBe(0);

    const miaThird = await attended(mia, '-1 day', 'Outdoor Bootcamp');
    const leoThird = await attended(leo, '-2 days', 'Spin');
    expect(await send(days(0))).toBe(2);
    const [toMia] = await requests(mia);
    const [toLeo] = await requests(leo);
    expect(toMia!.class_id).toBe(miaThird);
    expect(toLeo!.class_id).toBe(leoThird);
    expect(toMia!.subject).toBe('How was Outdoor Bootcamp?');
    expect(toMia!.body_text).toMatch(/^Hi Mia,\n\nThank you for coming to Outdoor Bootcamp with Coach Test on .+\. How did it go\?/);
    // No gating: the same offer, word for word, whoever they are and whatever they attended.
    const offer = (body: string) => body.split('\n\n').slice(2).join('\n\n');
    expect(offer(toMia!.body_text)).toBe(offer(toLeo!.body_text));
    expect(offer(toMia!.body_text)).toContain(REVIEW_URL);
    expect(offer(toMia!.body_text)).toContain('nothing depends on it');
    expect(toMia!.links.map((l) => l.path)).toEqual(['/membership', '/edit-profile']);

    // Idempotent: the same "now" again, or later the same day, sends nothing more.
    expect(await send(days(0))).toBe(0);
    expect(await send(days(0.5))).toBe(0);
    expect(await requests(mia)).toHaveLength(1);
  });

  it('at most once in M months: three more classes within them ask nothing; after them, they do', async () => {
    const ana = await createUser(db, 'review-ana');
    for (const ago of ['-5 days', '-4 days', '-3 days']) await attended(ana, ago);
    expect(await send(days(0))).toBe(1);
    for (const ago of ['-2 days', '-1 day', '-1 hour']) await attended(ana, ago);
    expect(await send(days(0))).toBe(0);
    expect(await requests(ana)).toHaveLength(1);
    // Seven months on, three more classes in the last week ask again.
    const later = 7 * 30;
    for (const ahead of [later - 3, later - 2, later - 1]) await attended(ana, `${ahead} days`);
    expect(await send(days(later))).toBe(1);
    expect(await requests(ana)).toHaveLength(2);
  });

  it('counts neither children’s places, unattended places, classes long ago, nor anything while the studio has them off', async () => {
    const ben = await createUser(db, 'review-ben');
    for (const ago of ['-60 days', '-50 days', '-40 days']) await attended(ben, ago);
    // The third class is too long ago to ask how it went.
    expect(await send(days(0))).toBe(0);

    const cat = await createUser(db, 'review-cat');
    await attended(cat, '-3 days');
    await attended(cat, '-2 days');
    const noShow = await createClass(db, { startsIn: '-1 day' });
    await db.query(`insert into public.bookings (member_id, class_id, type, attendance) values ($1, $2, 'paid', 'no_show')`, [
      cat.memberId,
      noShow,
    ]);
    expect(await send(days(0))).toBe(0);

    await attended(cat, '-1 day');
    await as(admin, 'public.set_review_request_settings($1, $2, $3)', [null, 6, REVIEW_URL]);
    expect(await send(days(0))).toBe(0);
    expect(await requests(cat)).toEqual([]);
  });

  it('is not sent to a member who turned review requests off', async () => {
    // Whoever the earlier cases left due (the studio has them on again) is asked first.
    await send(days(0));
    const dan = await createUser(db, 'review-dan');
    await as(dan, 'public.set_notification_preference($1, $2, $3)', ['email', 'review_request', false]);
    for (const ago of ['-3 days', '-2 days', '-1 day']) await attended(dan, ago);
    expect(await send(days(0))).toBe(0);
    expect(await requests(dan)).toEqual([]);
    // Back on: the next run asks.
    await as(dan, 'public.set_notification_preference($1, $2, $3)', ['email', 'review_request', true]);
    expect(await send(days(0))).toBe(1);
  });
});
