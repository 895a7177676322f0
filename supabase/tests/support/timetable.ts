import type { SqlExecutor } from '../../local/db/open-database.ts';

// The recurring template as a later deploy might change it. Generating replaces the classes an
// earlier template made that the template in force no longer makes, so a test that needs such a
// class changes the template (private.timetable_slots, 05_schedule.sql) for the time of one step.

/** The spec's template (section 9) with Kids Club moved from Mondays to Tuesdays, same time. */
export const KIDS_CLUB_ON_TUESDAYS = `values
  ('Breakfast Club 06:00', 'Breakfast Club', time '06:00', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 07:15', 'Breakfast Club', time '07:15', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 08:30', 'Breakfast Club', time '08:30', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 10:00', 'Breakfast Club', time '10:00', array[1, 2, 3, 4, 5]),
  ('Kids Club 16:45', 'Kids Club', time '16:45', array[2])`;

/** The spec's template with the first Breakfast Club half an hour later (a new slot). */
export const FIRST_BREAKFAST_CLUB_AT_0630 = `values
  ('Breakfast Club 06:30', 'Breakfast Club', time '06:30', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 07:15', 'Breakfast Club', time '07:15', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 08:30', 'Breakfast Club', time '08:30', array[1, 2, 3, 4, 5]),
  ('Breakfast Club 10:00', 'Breakfast Club', time '10:00', array[1, 2, 3, 4, 5]),
  ('Kids Club 16:45', 'Kids Club', time '16:45', array[1])`;

/**
 * Runs `step` with the template's slots replaced by `slots` (a VALUES list of slot, name, London
 * time, ISO weekdays), as the database owner, then puts the template back as it was.
 */
export async function withTemplate<T>(db: SqlExecutor, slots: string, step: () => Promise<T>): Promise<T> {
  const { rows } = await db.query<{ definition: string | null }>(
    `select pg_get_functiondef(to_regprocedure('private.timetable_slots()')) as definition`,
  );
  const original = rows[0]!.definition;
  await db.query(
    `create or replace function private.timetable_slots()
     returns table (slot text, name text, wall_time time, weekdays integer[])
     language sql immutable set search_path = '' as $$ ${slots} $$`,
  );
  try {
    return await step();
  } finally {
    await db.query(original ?? 'drop function private.timetable_slots()');
  }
}
