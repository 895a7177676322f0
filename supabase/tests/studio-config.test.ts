import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_BRAND } from '../../netlify/lib/email/brand.ts';
import config from '../../studio.config.json' with { type: 'json' };
import { STUDIO, STUDIO_ADDRESS_LINES } from '../../src/config/studio.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { applyStudioSettings, studioSettings, studioSettingsSql } from '../local/db/studio-settings.ts';
import { LOCAL_MAIL_FROM } from '../local/stack.ts';

// The studio's identity comes from ONE file the owner edits, studio.config.json. The
// site and the functions read it through src/config/studio.ts; the database's emails print their
// copy in private.studio_settings, which the local stack writes from the file on every start and
// hosted gets from `npm run studio:sql`. These checks fail if any of them goes its own way.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const printed = async () =>
  (await db.query<{ address: string; email: string }>('select private.studio_address() as address, private.studio_email() as email'))
    .rows[0]!;

describe('the studio identity', () => {
  it('the site, the emails and the functions read studio.config.json', () => {
    expect(STUDIO).toMatchObject({
      name: config.name,
      email: config.email,
      phoneDisplay: config.phoneDisplay,
      phoneE164: config.phoneE164,
      social: config.social,
    });
    expect(STUDIO_ADDRESS_LINES).toEqual([config.hall, config.street, `${config.city} ${config.postcode}`, config.country]);
    expect(EMAIL_BRAND).toMatchObject({ name: config.name, email: config.email, addressLines: STUDIO_ADDRESS_LINES });
    expect(LOCAL_MAIL_FROM).toBe(`${config.name} <${config.email}>`);
  });

  it("the database's emails print what the file says (the local stack writes it on start)", async () => {
    expect(await printed()).toEqual({ address: STUDIO_ADDRESS_LINES.join(', '), email: config.email });
  });

  it('the hosted step (npm run studio:sql) writes another studio, quotes and all; the local one puts the file back', async () => {
    const owner = studioSettings({ email: 'bookings@stmarys.example' }, [
      "St Mary's Hall",
      '2 Church Road',
      'London N16 0AA',
      'United Kingdom',
    ]);
    await db.exec(studioSettingsSql(owner));
    expect(await printed()).toEqual({
      address: "St Mary's Hall, 2 Church Road, London N16 0AA, United Kingdom",
      email: 'bookings@stmarys.example',
    });
    // A Contact Us message now goes to the owner's inbox.
    await db.query(`select public.submit_contact_message('Vic Visitor', 'vic@example.test', 'Hello there')`);
    const { rows } = await db.query<{ to_email: string }>(`select to_email from public.notification_outbox where kind = 'contact_message'`);
    expect(rows.map((r) => r.to_email)).toEqual(['bookings@stmarys.example']);

    await applyStudioSettings(db);
    expect(await printed()).toEqual({ address: STUDIO_ADDRESS_LINES.join(', '), email: config.email });
  });
});
