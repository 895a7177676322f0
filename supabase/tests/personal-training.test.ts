import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, type TestUser } from './support/fixtures.ts';

// Issue 26: trainers are records; classes keep the trainer they had (classes.trainer is the
// trainer's name, classes.trainer_id the record).

describe('trainers', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  let member: TestUser;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'pt-admin', { is_admin: true });
    member = await createUser(db, 'pt-member', { membership_tier: 'standard' });
  });
  afterAll(async () => {
    await db.close();
  });

  it('every class names a trainer record of the same name (the class fixture still sends a name)', async () => {
    await createClass(db, { name: 'Linked' });
    const { rows } = await db.query<{ classes: number; linked: number }>(
      `select count(*)::int as classes, count(t.id)::int as linked
         from public.classes c left join public.trainers t on t.id = c.trainer_id and t.name = c.trainer`,
    );
    expect(rows[0]!.classes).toBeGreaterThan(0);
    expect(rows[0]!.linked).toBe(rows[0]!.classes);
  });

  it('a class given a trainer by name finds or records the trainer; by record takes its name; a rename follows', async () => {
    const asAdmin = (sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => tx.query<{ id: string; trainer: string; trainer_id: string }>(sql, params));
    const byName = await asAdmin(
      `insert into public.classes (name, start_time, trainer) values ('Yoga', now() + interval '3 days', 'Coach Newcomer') returning id, trainer, trainer_id`,
    );
    const { rows: t } = await db.query<{ id: string }>(`select id from public.trainers where name = 'Coach Newcomer'`);
    expect(byName.rows[0]).toMatchObject({ trainer: 'Coach Newcomer', trainer_id: t[0]!.id });

    const { rows: kim } = await asAdmin(`insert into public.trainers (name, bio) values ('Coach Kim', 'Pilates.') returning id`);
    const byRecord = await asAdmin(
      `insert into public.classes (name, start_time, trainer, trainer_id) values ('Pilates', now() + interval '3 days', 'ignored', $1) returning id, trainer, trainer_id`,
      [kim[0]!.id],
    );
    expect(byRecord.rows[0]).toMatchObject({ trainer: 'Coach Kim', trainer_id: kim[0]!.id });

    await asAdmin(`update public.trainers set name = 'Coach Kimberley' where id = $1`, [kim[0]!.id]);
    const { rows: renamed } = await db.query('select trainer from public.classes where id = $1', [byRecord.rows[0]!.id]);
    expect(renamed).toEqual([{ trainer: 'Coach Kimberley' }]);

    // The class form still sends a name: changing it moves the class to that trainer.
    await asAdmin(`update public.classes set trainer = 'Coach Newcomer' where id = $1`, [byRecord.rows[0]!.id]);
    const { rows: moved } = await db.query<{ trainer_id: string }>('select trainer_id from public.classes where id = $1', [byRecord.rows[0]!.id]);
    expect(moved[0]!.trainer_id).toBe(t[0]!.id);
  });

  it('only admins write trainers; everyone reads them', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`insert into public.trainers (name) values ('Coach Sneaky')`)),
      { code: '42501' },
    );
    const updated = await asUser(db, member.claims, (tx) => tx.query(`update public.trainers set bio = 'hacked' where name = 'Coach Newcomer' returning id`));
    expect(updated.rows).toEqual([]);
    const read = await asUser(db, { role: 'anon' }, (tx) => tx.query(`select name, bio from public.trainers where name = 'Coach Newcomer'`));
    expect(read.rows).toEqual([{ name: 'Coach Newcomer', bio: '' }]);
  });
});
