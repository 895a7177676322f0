import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { waitForEmail } from '../support/inbox';
import { unique } from '../support/names';
import { bookAs, createClass, memberByEmail, rest } from '../support/rest';

// Guests (decision 0031): a member brings a guest with a guest pass; the guest opens the waiver link in
// their email (no account) and signs with their typed full name; the admin's class register then
// shows the guest's waiver signed.

type RegisterRow = { name: string; kind: string; contact_name: string | null; documents_current: boolean };

test('a guest signs the waiver from the link in their email and the register shows them signed', async ({ page, stack }) => {
  const email = `${unique('waiver-host')}@example.test`;
  const guestEmail = `${unique('waiver-guest')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Hana Host' });
  const host = await memberByEmail(stack, email);
  const admin = await memberByEmail(stack, ACCOUNTS.admin);
  const cls = await createClass(stack, unique('Guest Waiver Flow'), 2, 8);
  expect((await bookAs(stack, email, cls.id)).status, 'the host has a place (their free trial)').toBe('booked');
  // A guest pass granted by the studio (as admin_grant_credits records one), valid 30 days.
  await rest(stack, 'POST', '/rest/v1/credits', {
    member_id: host!.id,
    kind: 'guest_pass',
    source: 'admin_grant',
    grant_key: `grant:${crypto.randomUUID()}`,
    seq: 1,
    granted_by: admin!.id,
    reason: 'Journey',
    valid_from: new Date().toISOString(),
    expires_at: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
  });

  await signInAs(page, stack, email, { password: PASSWORD });
  await page.goto('/mybookings');
  await page.getByRole('button', { name: new RegExp(`^Add a guest to ${cls.name} on `) }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a guest' });
  await dialog.getByLabel("Guest's name").fill('Gus Guest');
  await dialog.getByLabel("Guest's email").fill(guestEmail);
  await dialog.getByRole('button', { name: 'Add guest (uses 1 guest pass)' }).click();
  await expect(page.getByRole('list', { name: new RegExp(`^Guests on ${cls.name} on `) }).getByText('Gus Guest')).toBeVisible();

  // The invitation links the waiver (and the cancel page) with the place's token.
  const invite = await waitForEmail(stack, guestEmail, `You are booked on ${cls.name} as Hana Host's guest`);
  expect(invite.text).toContain("Before the class, please read and sign the studio's waiver");
  const link = /\/guest\/waiver\?token=[0-9a-f]{48}/.exec(invite.text ?? '')?.[0];
  expect(link, 'the email carries the waiver link').toBeTruthy();
  // Until they sign, the register flags them.
  const before = await rest<RegisterRow[]>(
    stack,
    'POST',
    '/rest/v1/rpc/admin_class_places',
    { p_class_ids: [cls.id] },
    await authHeaders(stack, ACCOUNTS.admin),
  );
  expect(before.find((r) => r.name === 'Gus Guest')).toMatchObject({ kind: 'guest', contact_name: 'Hana Host', documents_current: false });

  // The guest has no account: a browser with nobody signed in opens the link.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Sign the waiver', level: 1 })).toBeVisible();
  await expect(page.getByText(`Hana Host has booked you a place on ${cls.name}, `)).toBeVisible();
  await expect(page.getByRole('region', { name: /waiver/i })).toBeVisible();
  expect(formatViolations(await runAxe(page)), 'axe on the guest waiver page').toBe('');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is no wider than the screen').toBeLessThanOrEqual(0);
  await page.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }).check();
  await page.getByLabel('Type your full name to sign').fill('Gus Guest');
  await page.getByRole('button', { name: 'Sign the waiver' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed the waiver' })).toBeVisible();
  await expect(page.getByText(/, as Gus Guest\.$/)).toBeVisible();

  // The admin's register shows the guest after their host, signed.
  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  await page.goto(`/admin/register/${cls.id}`);
  const row = page.getByRole('row').filter({ hasText: 'Gus Guest' });
  await expect(row.getByText('Guest of Hana Host')).toBeVisible();
  await expect(row.getByText('Waiver signed')).toBeVisible();
  await expect(row.getByText('Waiver not signed')).toHaveCount(0);
});
