import type { Page } from 'playwright-core';
import { ACCOUNTS, authHeaders, createConfirmedMember, passwordSession, signInAs } from '../support/accounts';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import { openRoute } from '../support/page-helpers';
import { createClass, memberByEmail, rest, type ClassRow } from '../support/rest';

// Journeys of issues 5 and 7 beyond the first booking: the trial transition, the premium lock,
// a declined class payment, a plan purchase, and the profile (photo and password).

const unique = (label: string, width: number) => `${label}-${width}-${Date.now().toString(36)}`;

/** The 1x1 PNG a member "uploads" as a profile photo. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** Finds a class on Book a Class by name (the search box) and returns its card. */
async function findCard(page: Page, name: string) {
  await openRoute(page, '/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(name);
  const card = page.getByRole('article', { name });
  await card.waitFor();
  return card;
}

/** A trial member's first booking is their free trial and moves them to pay-as-you-go (spec section 4). */
const trialFirstBooking: Journey = {
  name: 'trial member books their free class and becomes pay-as-you-go',
  async run({ page, stack, width }) {
    const email = `${unique('trialbook', width)}@example.test`;
    // Signed up as /free-trial does, so the database makes the member a trial.
    await createConfirmedMember(stack, email, 'trial-pass-123', { full_name: 'Tia Trial', signup_source: 'free-trial' });
    expect((await memberByEmail(stack, email))?.membership_tier === 'trial', 'the free-trial sign-up did not make a trial member');
    const cls = await createClass(stack, `Yoga ${unique('t', width)}`, 2, 10, 10);
    await signInAs(page, stack, email, { password: 'trial-pass-123' });
    const card = await findCard(page, cls.name);
    await card.getByRole('button', { name: 'Book Now' }).click();
    await page.getByText('Free trial class booked! You are now on Pay-As-You-Go.', { exact: true }).first().waitFor();
    await card.getByRole('button', { name: 'Booked' }).waitFor();
    const after = await memberByEmail(stack, email);
    expect(after?.membership_tier === 'payg' && after.has_used_trial && after.trial_expires_at === null, `member after the trial booking: ${JSON.stringify(after)}`);
    const rows = await rest<{ type: string; payment_status: string }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&select=type,payment_status`);
    expect(rows.length === 1 && rows[0]!.type === 'trial' && rows[0]!.payment_status === 'completed', `trial booking row: ${JSON.stringify(rows)}`);
  },
};

/** A premium class outside its unlock window is locked for a standard member, open for a premium one. */
const premiumLock: Journey = {
  name: 'premium class is locked for a standard member and bookable by a premium one',
  async run({ page, stack, width }) {
    const start = new Date(Date.now() + 6 * 24 * 3600_000);
    const [cls] = await rest<ClassRow[]>(stack, 'POST', '/rest/v1/classes?select=id,name,start_time,spots_left', {
      name: `Reformer ${unique('l', width)}`,
      description: 'Premium class made by an e2e journey',
      duration: 45,
      start_time: start.toISOString(),
      trainer: 'Coach E2E',
      type: 'Group',
      capacity: 8,
      is_premium: true,
      unlock_for_standard: '3 days',
    });
    await signInAs(page, stack, ACCOUNTS.standard);
    const card = await findCard(page, cls!.name);
    await card.getByText(/^Opens in /).waitFor();
    const locked = card.getByRole('button', { name: 'Locked' });
    expect(await locked.isDisabled(), 'the Locked button can be pressed');
    // The database refuses it too, whatever a browser sends.
    const refused = await fetch(`${stack.url}/rest/v1/rpc/book_class`, {
      method: 'POST',
      headers: await authHeaders(stack, ACCOUNTS.standard),
      body: JSON.stringify({ p_class_id: cls!.id }),
    });
    expect(refused.status >= 400, `book_class answered ${refused.status} for a locked class`);

    await page.evaluate(() => localStorage.clear());
    await signInAs(page, stack, ACCOUNTS.premium);
    const open = await findCard(page, cls!.name);
    await open.getByRole('button', { name: 'Book Now' }).click();
    await page.getByText('Class booked successfully!', { exact: true }).first().waitFor();
    await open.getByRole('button', { name: 'Booked' }).waitFor();
  },
};

/** A pay-as-you-go member declines on the test checkout: no booking is left and the spot is free again. */
const paygDecline: Journey = {
  name: 'pay-as-you-go member declines the payment and the spot is released',
  async run({ page, stack, width, origin }) {
    const cls = await createClass(stack, `Circuits ${unique('d', width)}`, 2, 4, 10);
    await signInAs(page, stack, ACCOUNTS.payg);
    const card = await findCard(page, cls.name);
    await card.getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('button', { name: 'Decline' }).click({ timeout: 20_000 });
    await page.waitForURL((url) => url.href.startsWith(origin) && url.pathname === '/payment/return', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Payment not completed', level: 1 }).waitFor({ timeout: 20_000 });
    await page.getByText('The spot you were holding has been released.').waitFor();
    const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&select=id`);
    expect(rows.length === 0, `bookings left after a declined payment: ${JSON.stringify(rows)}`);
    const [after] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
    expect(after?.spots_left === cls.spots_left, `spots_left ${after?.spots_left}, expected ${cls.spots_left}`);
  },
};

/** A pay-as-you-go member buys Standard on /membership: the tier and the renewal date change. */
const buyStandard: Journey = {
  name: 'member buys the Standard plan on the test checkout',
  async run({ page, stack, width, origin }) {
    const email = `${unique('buyer', width)}@example.test`;
    await createConfirmedMember(stack, email, 'buyer-pass-123', { full_name: 'Bea Buyer' });
    await signInAs(page, stack, email, { password: 'buyer-pass-123' });
    await openRoute(page, '/membership');
    await page.getByRole('button', { name: 'Buy Standard', exact: true }).click();
    await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
    await page.waitForURL((url) => url.href.startsWith(origin) && url.pathname === '/payment/return', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Payment received', level: 1 }).waitFor({ timeout: 20_000 });
    await page.getByText('Thank you! Your Standard purchase is confirmed.').waitFor();
    const [member] = await rest<{ membership_tier: string; plan_renews_at: string | null }[]>(
      stack,
      'GET',
      `/rest/v1/members?email=eq.${encodeURIComponent(email)}&select=membership_tier,plan_renews_at`,
    );
    const renewsInDays = member?.plan_renews_at ? (new Date(member.plan_renews_at).getTime() - Date.now()) / (24 * 3600_000) : NaN;
    expect(member?.membership_tier === 'standard' && renewsInDays > 29 && renewsInDays <= 30, `member after buying Standard: ${JSON.stringify(member)}`);
  },
};

/** Edit Profile: a photo upload (stored as <member id>.png, shown) and a password change that signs in. */
const profilePhotoAndPassword: Journey = {
  name: 'member uploads a profile photo and changes their password',
  async run({ page, stack, width }) {
    const email = `${unique('profile', width)}@example.test`;
    await createConfirmedMember(stack, email, 'first-pass-123', { full_name: 'Pat Profile' });
    const member = await memberByEmail(stack, email);
    expect(member, `no member row for ${email}`);
    await signInAs(page, stack, email, { password: 'first-pass-123' });
    await openRoute(page, '/edit-profile');
    await page.getByRole('heading', { name: 'Profile Photo' }).waitFor();

    await page.getByLabel('Choose a profile photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1PX });
    await page.getByText('Profile picture updated successfully!', { exact: true }).first().waitFor();
    // Stored as <member id>.png, saved on the member row, and shown from storage after a reload.
    const [saved] = await rest<{ profile_image_url: string | null }[]>(stack, 'GET', `/rest/v1/members?id=eq.${member.id}&select=profile_image_url`);
    expect(saved?.profile_image_url?.includes(`/storage/v1/object/public/avatars/${member.id}.png`), `profile_image_url ${saved?.profile_image_url}`);
    await openRoute(page, '/edit-profile');
    const src = await page.getByRole('img', { name: 'Profile photo' }).getAttribute('src');
    expect(src?.startsWith(saved!.profile_image_url!.split('?')[0]!), `photo src after reload ${src}`);
    const served = await fetch(src!);
    expect(served.ok && served.headers.get('content-type')?.startsWith('image/png'), `photo answered ${served.status} ${served.headers.get('content-type')}`);

    await page.getByLabel('New Password', { exact: true }).fill('second-pass-456');
    await page.getByLabel('Confirm New Password').fill('second-pass-45');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Passwords do not match').first().waitFor();
    await page.getByLabel('Confirm New Password').fill('second-pass-456');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password updated successfully!', { exact: true }).first().waitFor();
    await passwordSession(stack, email, 'second-pass-456');
    const old = await passwordSession(stack, email, 'first-pass-123').then(
      () => 'accepted',
      () => 'refused',
    );
    expect(old === 'refused', 'the old password still signs in');
  },
};

export const memberAccountJourneys: Journey[] = [trialFirstBooking, premiumLock, paygDecline, buyStandard, profilePhotoAndPassword];
