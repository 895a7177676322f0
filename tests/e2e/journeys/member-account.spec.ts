import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, createConfirmedMember, passwordSession, signInAs, storageKey } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { createClass, memberByEmail, rest, type ClassRow } from '../support/rest';
import { escapeRegExp, unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';

// Journeys beyond the first booking: the trial transition, the premium lock,
// a declined class payment, a plan purchase, and the profile (photo and password).

const DAY_MS = 24 * 3600_000;

/** The 1x1 PNG a member "uploads" as a profile photo. */
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A trial member's first booking is their free trial and moves them to pay-as-you-go (spec section 4). */
test('trial member books their free class and becomes pay-as-you-go', async ({ page, stack }) => {
  const email = `${unique('trialbook')}@example.test`;
  // Signed up as /free-trial does, so the database makes the member a trial.
  await createConfirmedMember(stack, email, 'trial-pass-123', { full_name: 'Tia Trial', signup_source: 'free-trial' });
  expect((await memberByEmail(stack, email))?.membership_tier, 'the free-trial sign-up makes a trial member').toBe('trial');
  const cls = await createClass(stack, `Yoga ${unique('t')}`, 2, 10, 10);
  await signInAs(page, stack, email, { password: 'trial-pass-123' });
  const card = await findClassCard(page, cls.name);
  await card.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByText('Free trial class booked! You are now on Pay-As-You-Go.', { exact: true }).first()).toBeVisible();
  await expect(card.getByRole('button', { name: 'Booked' })).toBeVisible();
  const after = await memberByEmail(stack, email);
  expect(after, 'the member after the trial booking').toMatchObject({
    membership_tier: 'payg',
    has_used_trial: true,
    trial_expires_at: null,
  });
  const rows = await rest<{ type: string; payment_status: string }[]>(
    stack,
    'GET',
    `/rest/v1/bookings?class_id=eq.${cls.id}&select=type,payment_status`,
  );
  expect(rows, 'one completed trial booking').toEqual([{ type: 'trial', payment_status: 'completed' }]);
});

/** A premium class outside its unlock window is locked for a standard member, open for a premium one. */
test('premium class is locked for a standard member and bookable by a premium one', async ({ page, stack }) => {
  const [cls] = await rest<ClassRow[]>(stack, 'POST', '/rest/v1/classes?select=id,name,start_time,spots_left', {
    name: `Reformer ${unique('l')}`,
    description: 'Premium class made by an e2e journey',
    duration: 45,
    start_time: new Date(Date.now() + 6 * DAY_MS).toISOString(),
    trainer: 'Coach E2E',
    type: 'Group',
    capacity: 8,
    is_premium: true,
    unlock_for_standard: '3 days',
  });
  await signInAs(page, stack, ACCOUNTS.standard);
  const card = await findClassCard(page, cls!.name);
  await expect(card.getByText(/^Opens in /)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Locked' })).toBeDisabled();
  // The database refuses it too, whatever a browser sends.
  const refused = await fetch(`${stack.url}/rest/v1/rpc/book_class`, {
    method: 'POST',
    headers: await authHeaders(stack, ACCOUNTS.standard),
    body: JSON.stringify({ p_class_id: cls!.id }),
  });
  expect(refused.status, 'book_class refuses a locked class').toBeGreaterThanOrEqual(400);

  await page.evaluate(() => localStorage.clear());
  await signInAs(page, stack, ACCOUNTS.premium);
  const open = await findClassCard(page, cls!.name);
  await open.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByText('Class booked successfully!', { exact: true }).first()).toBeVisible();
  await expect(open.getByRole('button', { name: 'Booked' })).toBeVisible();
});

/** A pay-as-you-go member declines on the test checkout: no booking is left and the spot is free again. */
test('pay-as-you-go member declines the payment and the spot is released', async ({ page, stack, baseURL }) => {
  const cls = await createClass(stack, `Circuits ${unique('d')}`, 2, 4, 10);
  await signInAs(page, stack, ACCOUNTS.payg);
  const card = await findClassCard(page, cls.name);
  await card.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('button', { name: 'Decline' }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment not completed', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('The spot you were holding has been released.')).toBeVisible();
  const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&select=id`);
  expect(rows, 'no booking left after a declined payment').toEqual([]);
  const [after] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
  expect(after?.spots_left, 'the spot is free again').toBe(cls.spots_left);
});

/** A pay-as-you-go member buys Standard on /membership: the card is saved, the tier and the renewal date change. */
test('member buys the Standard plan on the test checkout', async ({ page, stack, baseURL }) => {
  const email = `${unique('buyer')}@example.test`;
  await createConfirmedMember(stack, email, 'buyer-pass-123', { full_name: 'Bea Buyer' });
  await signInAs(page, stack, email, { password: 'buyer-pass-123' });
  await page.goto('/membership');
  await page.getByRole('button', { name: 'Buy Standard', exact: true }).click();
  // A plan's checkout saves the card for its renewals (decision 0009): the test page offers two test cards.
  await page.getByRole('button', { name: /card that always pays/ }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Thank you! Your Standard purchase is confirmed.')).toBeVisible();
  const [member] = await rest<{ membership_tier: string; plan_renews_at: string | null }[]>(
    stack,
    'GET',
    `/rest/v1/members?email=eq.${encodeURIComponent(email)}&select=membership_tier,plan_renews_at`,
  );
  expect(member?.membership_tier, 'the tier after buying Standard').toBe('standard');
  // One calendar month (London) ahead: 28 to 31 days, whatever the month.
  const renewsInDays = (new Date(member!.plan_renews_at ?? NaN).getTime() - Date.now()) / DAY_MS;
  expect(renewsInDays > 27 && renewsInDays <= 31, `the plan renews a calendar month ahead (plan_renews_at ${member!.plan_renews_at})`).toBe(
    true,
  );
});

/** Edit Profile: a photo upload (stored as <member id>.png, shown) and a password change that signs in. */
test('member uploads a profile photo and changes their password', async ({ page, stack }) => {
  const email = `${unique('profile')}@example.test`;
  await createConfirmedMember(stack, email, 'first-pass-123', { full_name: 'Pat Profile' });
  const member = await memberByEmail(stack, email);
  expect(member, `a member row for ${email}`).toBeDefined();
  await signInAs(page, stack, email, { password: 'first-pass-123' });
  await page.goto('/edit-profile');
  await expect(page.getByRole('heading', { name: 'Profile Photo' })).toBeVisible();

  await page.getByLabel('Choose a profile photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1PX });
  await expect(page.getByText('Profile picture updated successfully!', { exact: true }).first()).toBeVisible();
  // Stored as <member id>.png, saved on the member row, and shown from storage after a reload.
  const [saved] = await rest<{ profile_image_url: string | null }[]>(
    stack,
    'GET',
    `/rest/v1/members?id=eq.${member!.id}&select=profile_image_url`,
  );
  expect(saved?.profile_image_url, 'profile_image_url on the member row').toContain(`/storage/v1/object/public/avatars/${member!.id}.png`);
  await page.goto('/edit-profile');
  const photo = page.getByRole('img', { name: 'Profile photo' });
  await expect(photo).toHaveAttribute('src', new RegExp(`^${escapeRegExp(saved!.profile_image_url!.split('?')[0]!)}`));
  const served = await fetch((await photo.getAttribute('src'))!);
  expect(served.ok, `the photo is served (${served.status})`).toBe(true);
  expect(served.headers.get('content-type'), 'the photo is a PNG').toMatch(/^image\/png/);

  await page.getByLabel('New Password', { exact: true }).fill('second-pass-456');
  await page.getByLabel('Confirm New Password').fill('second-pass-45');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Passwords do not match').first()).toBeVisible();
  await page.getByLabel('Confirm New Password').fill('second-pass-456');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully!', { exact: true }).first()).toBeVisible();
  await passwordSession(stack, email, 'second-pass-456');
  await expect(passwordSession(stack, email, 'first-pass-123'), 'the old password no longer signs in').rejects.toThrow(
    /sign-in of .* failed/,
  );
});

// Log Out on a member screen goes home, with no sign-in link back to that screen, and
// leaves nothing of the member's on this browser for the next person.
test('a member logs out from the dashboard and lands on the home page', async ({ page, stack }) => {
  const email = `${unique('leaver')}@example.test`;
  await createConfirmedMember(stack, email, 'leaver-pass-123', { full_name: 'Lee Leaver' });
  await signInAs(page, stack, email, { password: 'leaver-pass-123' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Log Out' }).first().click();
  await expect(page.getByText('Logged out successfully', { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '');
  const left = await page.evaluate(
    (key) => [localStorage.getItem(key), localStorage.getItem('ffEmail'), localStorage.getItem('ffOfflineSnapshot')],
    storageKey(stack.url),
  );
  expect(left).toEqual([null, null, null]);
});
