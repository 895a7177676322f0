import { describe, expect, it } from 'vitest';
import { createClass, createUser, publishBookingDocuments, signCurrentDocuments } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pg, pgClientDatabase } from './support/real-postgres.ts';

// The documents rule (decision 0021) on the real PostgreSQL server: an admin publishes a new waiver while a member books.
// The booking either precedes the publish (it commits first) or is refused: it never commits after
// a new version it has not signed. publish_document takes a lock bookings' inserts wait for.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('waiver race', binDir);

async function connectAs(claims: object) {
  const client = new pg.Client({ connectionString: server.cluster()!.connectionString });
  await client.connect();
  await client.query('begin');
  await client.query('set local role authenticated');
  await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
  return client;
}

const publishWaiver = `select id from public.publish_document('waiver', 'Liability Waiver', 'A new waiver text.', 'Changed', null)`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!binDir)('a new waiver published while a member books (real PostgreSQL)', () => {
  async function setUp(label: string) {
    const db = pgClientDatabase(server.admin()!);
    await publishBookingDocuments(db, label);
    const admin = await createUser(db, `${label}-admin`, { is_admin: true });
    const member = await createUser(db, `${label}-member`, { membership_tier: 'premium' });
    await signCurrentDocuments(db, member.memberId);
    const classId = await createClass(db);
    return { db, admin, member, classId };
  }

  it('a booking under way when the admin publishes commits first: the publish waits for it', async () => {
    const { db, admin, member, classId } = await setUp('race-first');
    const booking = await connectAs(member.claims);
    const publisher = await connectAs(admin.claims);
    const events: string[] = [];
    try {
      await booking.query('select public.book_class($1)', [classId]);
      const publishing = publisher.query(publishWaiver).then(() => events.push('published'));
      await sleep(500);
      events.push('booking commits');
      await booking.query('commit');
      await publishing;
      await publisher.query('commit');
    } finally {
      await Promise.all([booking.end(), publisher.end()]);
    }
    expect(events).toEqual(['booking commits', 'published']);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.bookings where member_id = $1', [
      member.memberId,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  it('a booking that reaches the table after the publish is refused until the member signs the new waiver', async () => {
    const { db, admin, member, classId } = await setUp('race-second');
    const publisher = await connectAs(admin.claims);
    const booking = await connectAs(member.claims);
    let refusal: { hint?: string } | undefined;
    try {
      await publisher.query(publishWaiver);
      const booked = booking.query('select public.book_class($1)', [classId]).then(
        () => undefined,
        (error: { hint?: string }) => {
          refusal = error;
        },
      );
      await sleep(500);
      await publisher.query('commit');
      await booked;
      await booking.query(refusal ? 'rollback' : 'commit');
    } finally {
      await Promise.all([booking.end(), publisher.end()]);
    }
    expect(refusal?.hint).toBe('documents_required');
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.bookings where member_id = $1', [
      member.memberId,
    ]);
    expect(rows[0]!.n).toBe(0);
  });
});
