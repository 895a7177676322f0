import { asUser } from '../../local/db/as-user.ts';
import type { SqlDatabase } from '../../local/db/open-database.ts';
import { createClass, createUser, rpc, signCurrentDocuments, type TestUser } from './fixtures.ts';

// Family accounts' fixtures: a parent who signed, their signed-for children, Kids Club.

/** A free class for children aged min..max (null: adults only), as the database owner. */
export async function kidsClass(
  db: SqlDatabase,
  opts: { min?: number | null; max?: number | null; capacity?: number; price?: number | null } = {},
) {
  const id = await createClass(db, {
    name: 'Kids Club',
    capacity: opts.capacity ?? 12,
    price_payg: opts.price === undefined ? 0 : opts.price,
  });
  await db.query(`update public.classes set min_age = $2, max_age = $3 where id = $1`, [
    id,
    opts.min === undefined ? 4 : opts.min,
    opts.max === undefined ? 12 : opts.max,
  ]);
  return id;
}

/** A date of birth `years` years before the class (two days from now), as yyyy-mm-dd. */
export const bornYearsAgo = (years: number) => {
  const d = new Date(Date.now() - 30 * 86_400_000);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
};

export async function addChild(db: SqlDatabase, parent: TestUser, name: string, years: number, sign = true) {
  const id: string = await asUser(db, parent.claims, (tx) =>
    rpc<string>(tx, 'public.save_dependant($1, $2::date, null, $3, $4)', [name, bornYearsAgo(years), 'Nut allergy', 'Grandma Sue']),
  );
  if (sign) await signForChild(db, parent, id);
  return id;
}

/** The children's health questionnaire's questions as the fixtures publish them (decision 0093). */
export const CHILD_QUESTIONS = ['Does your child have asthma?', 'Has your child had an injury in the last six months?'];

/** Publishes the next version of the children's health questionnaire (child_parq), as the database owner. */
export async function publishChildQuestionnaire(db: SqlDatabase, questions: string[] = CHILD_QUESTIONS): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.document_versions (kind, version, title, body, questions)
     values ('child_parq', coalesce((select max(version) from public.document_versions where kind = 'child_parq'), 0) + 1,
             'Children''s health questionnaire', 'Answer for your child.', $1::jsonb)
     returning id`,
    [JSON.stringify(questions)],
  );
  return rows[0]!.id;
}

/**
 * Signs the current waiver and answers the current children's health questionnaire (when one is
 * published) for a child: yes to the first question, no to the rest.
 */
export async function signForChild(db: SqlDatabase, parent: TestUser, childId: string) {
  const { rows } = await db.query<{ id: string; questions: string[] | null }>(
    `select distinct on (kind) id, questions from public.document_versions where kind in ('waiver', 'child_parq') order by kind, version desc`,
  );
  const questions = rows.find((r) => r.questions)?.questions ?? [];
  await asUser(db, parent.claims, (tx) =>
    rpc(tx, 'public.sign_for_dependant($1, $2, $3::uuid[], $4::jsonb, $5, $6)', [
      childId,
      'Pat Parent',
      rows.map((r) => r.id),
      JSON.stringify(questions.map((_, i) => i === 0)),
      'Asthma: inhaler in bag',
      true,
    ]),
  );
}

export async function parent(db: SqlDatabase, label: string, fields: Parameters<typeof createUser>[2] = { membership_tier: 'standard' }) {
  const p = await createUser(db, label, fields);
  await signCurrentDocuments(db, p.memberId);
  return p;
}

export const bookFamily = (db: SqlDatabase, u: TestUser, classId: string, self: boolean, children: string[]) =>
  asUser(db, u.claims, (tx) =>
    rpc<{ booking_ids: string[]; places: number; spots_left: number }>(tx, 'public.book_family($1, $2, $3::uuid[])', [
      classId,
      self,
      children,
    ]),
  );
