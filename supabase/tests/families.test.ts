import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import {
  classCounts,
  createUser,
  expectSqlError,
  publishBookingDocuments,
  rpc,
  signCurrentDocuments,
  type TestUser,
} from './support/fixtures.ts';
import {
  addChild,
  bookFamily,
  bornYearsAgo,
  CHILD_QUESTIONS,
  kidsClass,
  parent,
  publishChildQuestionnaire,
  signForChild,
} from './support/families.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Family accounts (decision 0021): a parent's children, a class's age range, the
// parent's signatures for each child, book_family (all places or none) and cancel per person.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db);
  await publishChildQuestionnaire(db);
});
afterAll(async () => {
  await db.close();
});

describe('children on a parent account', () => {
  it('are added, edited and removed by their parent, who alone (with admins) reads them', async () => {
    const pat = await parent(db, 'fam-pat');
    const other = await parent(db, 'fam-other');
    const admin = await createUser(db, 'fam-admin', { is_admin: true });
    const child = await addChild(db, pat, 'Mia', 7, false);

    const mine = await asUser(db, pat.claims, (tx) => rpc<{ name: string; missing_documents: string[] }[]>(tx, 'public.my_dependants()'));
    expect(mine).toMatchObject([{ name: 'Mia', missing_documents: ['waiver', 'child_parq'] }]);
    const seenByOther = await asUser(db, other.claims, (tx) => tx.query(`select id from public.dependants where id = $1`, [child]));
    expect(seenByOther.rows).toEqual([]);
    const seenByAdmin = await asUser(db, admin.claims, (tx) => tx.query(`select id from public.dependants where id = $1`, [child]));
    expect(seenByAdmin.rows).toHaveLength(1);

    await expectSqlError(
      asUser(db, other.claims, (tx) => rpc(tx, `public.save_dependant('Stolen', '2018-01-01'::date, $1)`, [child])),
      { code: 'P0002', hint: 'dependant_not_found' },
    );
    await asUser(db, pat.claims, (tx) => rpc(tx, `public.save_dependant('Mia Rose', '2018-01-01'::date, $1, null, 'Dad')`, [child]));
    const { rows } = await db.query(`select name, collected_by, medical_notes from public.dependants where id = $1`, [child]);
    expect(rows).toEqual([{ name: 'Mia Rose', collected_by: 'Dad', medical_notes: null }]);

    await expectSqlError(
      asUser(db, other.claims, (tx) => rpc(tx, 'public.remove_dependant($1)', [child])),
      { hint: 'dependant_not_found' },
    );
    expect(await asUser(db, pat.claims, (tx) => rpc(tx, 'public.remove_dependant($1)', [child]))).toBe(true);
  });

  it('refuses a date of birth in the future, and nothing is saved', async () => {
    const pat = await parent(db, 'fam-future');
    await expectSqlError(
      asUser(db, pat.claims, (tx) => rpc(tx, `public.save_dependant('Later', (current_date + 30)::date)`)),
      { hint: 'date_of_birth_in_future', message: 'Date of birth cannot be in the future' },
    );
    const { rows } = await db.query(`select 1 from public.dependants where parent_member_id = $1`, [pat.memberId]);
    expect(rows).toEqual([]);
  });

  it('have no email and no sign-in: a child is not a member and never uses a free trial', async () => {
    const trial = await parent(db, 'fam-trial', { membership_tier: 'trial' });
    const kids = await kidsClass(db);
    const child = await addChild(db, trial, 'Leo', 6);
    await bookFamily(db, trial, kids, false, [child]);
    const { rows } = await db.query(`select membership_tier::text as tier, has_used_trial from public.members where id = $1`, [
      trial.memberId,
    ]);
    expect(rows).toEqual([{ tier: 'trial', has_used_trial: false }]);
    const booked = await db.query(`select type::text, member_id from public.bookings where dependant_id = $1`, [child]);
    expect(booked.rows).toEqual([{ type: 'payg', member_id: trial.memberId }]);
  });
});

describe('book_family', () => {
  it('books the parent and two children in one step; My Bookings names each child', async () => {
    const pat = await parent(db, 'fam-three');
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Ava', 5);
    const b = await addChild(db, pat, 'Ben', 9);
    const result = await bookFamily(db, pat, kids, true, [a, b]);
    expect(result).toMatchObject({ places: 3, spots_left: 9 });
    expect(result.booking_ids).toHaveLength(3);
    const mine = await asUser(db, pat.claims, (tx) =>
      rpc<{ class_id: string; dependant_name: string | null; type: string }[]>(tx, 'public.my_bookings()'),
    );
    expect(mine.filter((r) => r.class_id === kids).map((r) => [r.dependant_name, r.type])).toEqual([
      [null, 'paid'],
      ['Ava', 'payg'],
      ['Ben', 'payg'],
    ]);
    expect(await classCounts(db, kids)).toMatchObject({ current_bookings: 3, spots_left: 9, bookings: 3 });
  });

  it("never adds a guest to a child's place, with nothing added", async () => {
    const pat = await parent(db, 'fam-guest');
    const kids = await kidsClass(db);
    const child = await addChild(db, pat, 'Gia', 7);
    await bookFamily(db, pat, kids, true, [child]);
    // The child's place, confirmed (as once its payment is in).
    const { rows } = await db.query<{ id: string }>(
      `update public.bookings set payment_status = 'completed' where class_id = $1 and dependant_id = $2 returning id`,
      [kids, child],
    );
    await expectSqlError(
      asUser(db, pat.claims, (tx) => rpc(tx, 'public.add_guest($1, $2, $3)', [rows[0]!.id, 'Gus Guest', 'gus@example.test'])),
      { hint: 'guest_not_for_child', message: "A guest comes with your own booking, not a child's" },
    );
    const guests = await db.query('select 1 from public.guest_places where class_id = $1', [kids]);
    expect(guests.rows).toEqual([]);
  });

  it('the parent can add themselves later when only a child was booked', async () => {
    const pat = await parent(db, 'fam-later');
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Ivy', 8);
    await bookFamily(db, pat, kids, false, [a]);
    const booked = await asUser(db, pat.claims, (tx) => rpc<{ status: string }>(tx, 'public.book_class($1)', [kids]));
    expect(booked.status).toBe('booked');
  });

  const refused = async (
    label: string,
    setUp: (pat: TestUser) => Promise<{ classId: string; self: boolean; children: string[] }>,
    error: object,
  ) => {
    const pat = await parent(db, label);
    const { classId, self, children } = await setUp(pat);
    const before = await classCounts(db, classId);
    await expectSqlError(bookFamily(db, pat, classId, self, children), error);
    expect(await classCounts(db, classId)).toEqual(before);
  };

  it('refuses a child outside the age range, with nothing booked (not even the parent)', async () => {
    await refused(
      'fam-age',
      async (pat) => ({ classId: await kidsClass(db), self: true, children: [await addChild(db, pat, 'Teen', 14)] }),
      { hint: 'outside_age_range', message: 'Teen will be 14 on the day; this class is for ages 4 to 12' },
    );
  });

  it('refuses a child on an adult-only class (no age range)', async () => {
    await refused(
      'fam-adults',
      async (pat) => ({
        classId: await kidsClass(db, { min: null, max: null }),
        self: true,
        children: [await addChild(db, pat, 'Zoe', 8)],
      }),
      { hint: 'adults_only_class', message: 'Zoe cannot be booked on this class: it is for adults' },
    );
  });

  it('refuses a child booked twice, and a child listed twice', async () => {
    const pat = await parent(db, 'fam-twice');
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Sam', 6);
    const b = await addChild(db, pat, 'Tom', 6);
    await bookFamily(db, pat, kids, false, [a]);
    const before = await classCounts(db, kids);
    await expectSqlError(bookFamily(db, pat, kids, false, [b, a]), {
      code: '23505',
      hint: 'dependant_already_booked',
      message: 'Sam is already booked on this class',
    });
    await expectSqlError(bookFamily(db, pat, kids, false, [b, b]), {
      hint: 'dependant_listed_twice',
      message: 'Each child can be booked once',
    });
    expect(await classCounts(db, kids)).toEqual(before);
  });

  it('refuses a seventh place on a class with five left: nothing booked', async () => {
    await refused(
      'fam-seven',
      async (pat) => {
        const classId = await kidsClass(db, { capacity: 5 });
        const children: string[] = [];
        for (let i = 0; i < 6; i += 1) children.push(await addChild(db, pat, `Kid ${i}`, 5 + i));
        return { classId, self: true, children };
      },
      { hint: 'not_enough_places', message: 'Only 5 places left on this class: you chose 7' },
    );
  });

  it('refuses a child whose waiver and PAR-Q the parent has not signed', async () => {
    await refused(
      'fam-unsigned',
      async (pat) => ({ classId: await kidsClass(db), self: false, children: [await addChild(db, pat, 'Nora', 7, false)] }),
      { hint: 'dependant_documents_required', message: 'Please sign the waiver and answer the health questions for Nora before booking' },
    );
  });

  it("refuses another parent's child", async () => {
    const other = await parent(db, 'fam-owner');
    const child = await addChild(db, other, 'Not Yours', 7);
    await refused('fam-thief', async () => ({ classId: await kidsClass(db), self: false, children: [child] }), {
      hint: 'dependant_not_found',
    });
  });

  it('sends places paid by card to the checkout: no child place is free, even when the plan covers the parent', async () => {
    await refused(
      'fam-paid',
      async (pat) => ({ classId: await kidsClass(db, { price: 10 }), self: true, children: [await addChild(db, pat, 'Paid Kid', 7)] }),
      { hint: 'family_payment_required' },
    );
  });

  it('refuses nobody chosen, and a class that started', async () => {
    const pat = await parent(db, 'fam-empty');
    await expectSqlError(bookFamily(db, pat, await kidsClass(db), false, []), { hint: 'nobody_chosen' });
  });

  it('keeps the rules on every path: a child row inserted by hand on an adults class is refused', async () => {
    const pat = await parent(db, 'fam-direct');
    const child = await addChild(db, pat, 'Direct', 7);
    const adults = await kidsClass(db, { min: null, max: null });
    await expectSqlError(
      db.query(`insert into public.bookings (member_id, class_id, dependant_id, type) values ($1, $2, $3, 'payg')`, [
        pat.memberId,
        adults,
        child,
      ]),
      { hint: 'adults_only_class' },
    );
  });

  it('asks again for a child after a new waiver is published', async () => {
    const pat = await parent(db, 'fam-newwaiver');
    const child = await addChild(db, pat, 'Ruby', 7);
    await db.query(
      `insert into public.document_versions (kind, version, title, body)
       select 'waiver', max(version) + 1, 'Waiver v2', 'New waiver.' from public.document_versions where kind = 'waiver'`,
    );
    await signCurrentDocuments(db, pat.memberId);
    await expectSqlError(bookFamily(db, pat, await kidsClass(db), false, [child]), { hint: 'dependant_documents_required' });
    await signForChild(db, pat, child);
    await expect(bookFamily(db, pat, await kidsClass(db), false, [child])).resolves.toMatchObject({ places: 1 });
  });
});

describe('the schedule says which classes take children', () => {
  it("gives each class's age range (none: adults only), so Book Now can ask a parent who is coming", async () => {
    const pat = await parent(db, 'fam-schedule');
    const kids = await kidsClass(db, { min: 5, max: 11 });
    const adults = await kidsClass(db, { min: null, max: null });
    const facts = (id: string) =>
      asUser(db, pat.claims, (tx) =>
        rpc<{ min_age: number | null; max_age: number | null }[]>(tx, 'public.class_schedule(p_class_id => $1)', [id]),
      );
    expect(await facts(kids)).toMatchObject([{ min_age: 5, max_age: 11 }]);
    expect(await facts(adults)).toMatchObject([{ min_age: null, max_age: null }]);
  });
});

describe("children's health questionnaire (decision 0093)", () => {
  const current = async (kind: string) =>
    (await db.query<{ id: string }>(`select id from public.document_versions where kind = $1 order by version desc limit 1`, [kind]))
      .rows[0]!.id;
  const signFor = (pat: TestUser, child: string, ids: string[], answers: boolean[]) =>
    asUser(db, pat.claims, (tx) =>
      rpc<{ id: string; missing_documents: string[] }[]>(tx, 'public.sign_for_dependant($1, $2, $3::uuid[], $4::jsonb, null, true)', [
        child,
        'Pat Parent',
        ids,
        JSON.stringify(answers),
      ]),
    );

  it("a child answers the children's questions, never the adult PAR-Q, and the roster shows the child's own answers", async () => {
    const pat = await parent(db, 'fam-childq');
    await db.query(`update public.health_answers set answers = '[true, true]', details = 'Pregnant' where member_id = $1`, [pat.memberId]);
    const child = await addChild(db, pat, 'Kit', 7, false);
    // The adult PAR-Q is not a child's document: refused, nothing stored.
    await expectSqlError(signFor(pat, child, [await current('waiver'), await current('parq')], [false, false]), {
      hint: 'document_not_current',
    });
    const none = await db.query('select 1 from public.dependant_health_answers where dependant_id = $1', [child]);
    expect(none.rows).toEqual([]);

    const signed = await signFor(pat, child, [await current('waiver'), await current('child_parq')], [false, true]);
    expect(signed.find((c) => c.id === child)?.missing_documents).toEqual([]);
    const kids = await kidsClass(db);
    await bookFamily(db, pat, kids, true, [child]);
    const admin = await createUser(db, 'fam-childq-admin', { is_admin: true });
    const places = await asUser(db, admin.claims, (tx) =>
      rpc<{ kind: string; health_yes: string[]; health_details: string | null }[]>(tx, 'public.admin_class_places($1::uuid[])', [[kids]]),
    );
    expect(places.find((p) => p.kind === 'child')).toMatchObject({ health_yes: [CHILD_QUESTIONS[1]], health_details: null });
    expect(JSON.stringify(places.find((p) => p.kind === 'child'))).not.toMatch(/Pregnant|heart condition/);
  });

  it('asks again when the studio publishes a new version; an admin publishes it with its questions', async () => {
    const pat = await parent(db, 'fam-childq-v2');
    const child = await addChild(db, pat, 'Ivy', 7);
    const admin = await createUser(db, 'fam-childq-publisher', { is_admin: true });
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, `public.publish_document('child_parq', 'Children v2', 'Answer for your child.')`)),
      { hint: 'questions_required' },
    );
    const published = await asUser(db, admin.claims, (tx) =>
      rpc<{ kind: string; questions: string[] }>(
        tx,
        `public.publish_document('child_parq', 'Children v2', 'Answer for your child.', null, '["Does your child wear glasses?"]'::jsonb)`,
      ),
    );
    expect(published).toMatchObject({ kind: 'child_parq', questions: ['Does your child wear glasses?'] });
    const mine = await asUser(db, pat.claims, (tx) => rpc<{ id: string; missing_documents: string[] }[]>(tx, 'public.my_dependants()'));
    expect(mine.find((c) => c.id === child)?.missing_documents).toEqual(['child_parq']);
    await expectSqlError(bookFamily(db, pat, await kidsClass(db), false, [child]), { hint: 'dependant_documents_required' });
    // The adult's own documents are untouched by it.
    const own = await asUser(db, pat.claims, (tx) => rpc<{ kind: string; is_current: boolean }[]>(tx, 'public.my_documents()'));
    expect(own.map((d) => d.kind)).toEqual(['terms', 'waiver', 'parq']);
    expect(own.every((d) => d.is_current)).toBe(true);
    // The fixtures' questions again, for the tests that follow.
    await publishChildQuestionnaire(db);
  });
});

describe('the confirmation email names every place (decision 0094)', () => {
  const confirmation = async (p: TestUser, classId: string) =>
    (
      await db.query<{ body_text: string }>(
        `select body_text from public.notification_outbox where member_id = $1 and class_id = $2 and kind = 'booking_confirmed' order by created_at`,
        [p.memberId, classId],
      )
    ).rows.map((r) => r.body_text);

  it('names the parent and each child booked together; a child alone, by name', async () => {
    const pat = await parent(db, 'fam-email');
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Ava', 5);
    const b = await addChild(db, pat, 'Ben', 9);
    await bookFamily(db, pat, kids, true, [b, a]);
    const [body] = await confirmation(pat, kids);
    expect(body).toMatch(/You have booked 3 places on Kids Club with .+: you, Ava and Ben\./);

    const other = await kidsClass(db);
    await bookFamily(db, pat, other, false, [a]);
    expect((await confirmation(pat, other))[0]).toMatch(/You have booked a place on Kids Club with .+ for Ava\./);

    // Adding themselves later: that email is about their own place only.
    await bookFamily(db, pat, other, true, []);
    expect((await confirmation(pat, other))[1]).toMatch(/You are booked on Kids Club with [^:]+\./);
  });
});

describe('cancel per person, the register and removing a child', () => {
  it('cancels one child and keeps the others; a child with a class ahead is not removed', async () => {
    const pat = await parent(db, 'fam-cancel');
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Cal', 6);
    const b = await addChild(db, pat, 'Dot', 7);
    const { booking_ids } = await bookFamily(db, pat, kids, true, [a, b]);
    await asUser(db, pat.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [booking_ids[1]]));
    const { rows } = await db.query<{ dependant_id: string | null }>(
      `select dependant_id from public.bookings where class_id = $1 order by dependant_id nulls first`,
      [kids],
    );
    expect(rows.map((r) => r.dependant_id)).toEqual([null, b]);
    await expectSqlError(
      asUser(db, pat.claims, (tx) => rpc(tx, 'public.remove_dependant($1)', [b])),
      { hint: 'dependant_has_bookings' },
    );
  });

  it("lists each child on the register with age, parent, the parent's phone, collection, medical notes and health flag", async () => {
    const pat = await parent(db, 'fam-register');
    await db.query(`update public.members set phone = '07700 900123' where id = $1`, [pat.memberId]);
    const admin = await createUser(db, 'fam-register-admin', { is_admin: true });
    const kids = await kidsClass(db);
    const a = await addChild(db, pat, 'Eve', 10);
    await bookFamily(db, pat, kids, true, [a]);
    const register = await asUser(db, admin.claims, (tx) =>
      rpc<Record<string, unknown>[]>(tx, 'public.admin_class_places($1::uuid[])', [[kids]]),
    );
    expect(register).toHaveLength(2);
    expect(register[1]).toMatchObject({
      name: 'Eve',
      dependant_id: a,
      kind: 'child',
      contact_name: 'Test fam-register',
      phone: '07700 900123',
      collected_by: 'Grandma Sue',
      medical_notes: 'Nut allergy',
      health_flag: true,
      health_yes: [CHILD_QUESTIONS[0]],
      health_details: 'Asthma: inhaler in bag',
      documents_current: true,
      date_of_birth: bornYearsAgo(10),
    });
    expect(register[0]).toMatchObject({ dependant_id: null, name: 'Test fam-register' });
  });
});

// The race: parallel family bookings on the last places of one class, on a real PostgreSQL server.
const binDir = findPostgresBinDir();
const server = migratedClusterForFile('families race', binDir);

describe.skipIf(!binDir)('real PostgreSQL: family bookings racing for the last places', () => {
  it('never overbook, and each family gets all its places or none', async () => {
    const pg = pgClientDatabase(server.admin()!);
    await publishBookingDocuments(pg);
    const classId = await kidsClass(pg, { capacity: 10 });
    const families: { p: TestUser; children: string[] }[] = [];
    for (let i = 0; i < 8; i += 1) {
      const p = await parent(pg, `race-family-${i}`);
      families.push({ p, children: [await addChild(pg, p, `Race A${i}`, 6), await addChild(pg, p, `Race B${i}`, 8)] });
    }
    // 8 families of 3 for 10 places: at most 3 families fit.
    const results = await together<unknown>(
      server.cluster()!.connectionString,
      families.map((f) => ({ sql: 'select public.book_family($1, true, $2::uuid[])', params: [classId, f.children], claims: f.p.claims })),
    );
    const ok = results.filter((r) => !r.error).length;
    const hints = [...new Set(results.filter((r) => r.error).map((r) => r.error!.hint))];
    console.log(`[families race PostgreSQL] 8 families of 3 for 10 places: ${ok} booked, refused with ${hints.join(', ')}`);
    expect(ok).toBe(3);
    expect(hints).toEqual(['not_enough_places']);
    expect(await classCounts(pg, classId)).toEqual({ capacity: 10, current_bookings: 9, spots_left: 1, bookings: 9 });
    const { rows } = await pg.query<{ n: number }>(
      `select count(*)::int as n from public.bookings where class_id = $1 group by member_id`,
      [classId],
    );
    expect(rows.every((r) => r.n === 3)).toBe(true);
  });

  it('a new waiver published while a family books: the booking either signed the old one first or is refused', async () => {
    const pg = pgClientDatabase(server.admin()!);
    const admin = await createUser(pg, 'race-publisher', { is_admin: true });
    const p = await parent(pg, 'race-waiver');
    const child = await addChild(pg, p, 'Race W', 7);
    const classId = await kidsClass(pg);
    const [, booked] = await together<unknown>(server.cluster()!.connectionString, [
      { sql: `select public.publish_document('waiver', 'Waiver v9', 'New text.')`, claims: admin.claims },
      { sql: 'select public.book_family($1, false, $2::uuid[])', params: [classId, [child]], claims: p.claims },
    ]);
    // Either order is fine; what must hold: a booking exists only if it was made before the publish.
    const { rows } = await pg.query<{ n: number }>(`select count(*)::int as n from public.bookings where dependant_id = $1`, [child]);
    expect(rows[0]!.n).toBe(booked!.error ? 0 : 1);
    if (booked!.error) expect(booked!.error.hint).toBe('dependant_documents_required');
  });
});
