import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { tabTo } from '../support/keyboard';
import { bookAs, createClass, memberByEmail, rest } from '../support/rest';
import { ADMIN_ROUTES } from '../support/routes';
import { escapeRegExp, unique } from '../support/names';
import { isPaymentReturn } from '../support/checkout';

const DAY_MS = 24 * 3600_000;

/** Trial sign-up on /free-trial, confirmed with the link from the stack's inbox (spec sections 2 and 4). */
test('trial sign-up with the inbox confirmation link', async ({ page, stack }) => {
  const email = `${unique('trial')}@example.test`;
  await page.goto('/free-trial');
  await expect(page.getByRole('heading', { name: 'Your First Class Is On Us' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Full Name' }).fill('Tess Trial');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('trial-pass-123');
  await page.getByRole('button', { name: 'Start My Free Trial' }).click();
  await expect(page.getByText('Check your email to confirm your account, then book your free class within 7 days!').first()).toBeVisible();

  const mail = (await stack.inbox.list()).find((m) => m.to === email);
  expect(mail, `an email to ${email} in the stack's inbox`).toBeDefined();
  const link = (mail!.links ?? []).find((l) => l.includes('/verify') || l.includes('token'));
  expect(link, `a confirmation link in "${mail!.subject}": ${JSON.stringify(mail!.links)}`).toBeDefined();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/my-schedule$/, { timeout: 20_000 });
  const member = await memberByEmail(stack, email);
  expect(member?.membership_tier, 'the confirmed member is a trial').toBe('trial');
  expect(new Date(member!.trial_expires_at!).getTime(), 'the trial expires about 7 days out').toBeGreaterThan(Date.now() + 6 * DAY_MS);
  expect(await page.evaluate(() => localStorage.getItem('ffEmail')), 'ffEmail stored after the callback').toBe(email);
});

/** A member finds a class on Book a Class and books it with the keyboard alone. */
test('member books a class with the keyboard alone', async ({ page, stack }) => {
  const cls = await createClass(stack, `Spin ${unique('b')}`, 2);
  await signInAs(page, stack, ACCOUNTS.standard);
  await page.goto('/my-schedule');
  await expect(page.getByRole('heading', { name: 'Available Classes', level: 1 })).toBeVisible();
  const search = page.getByPlaceholder('Search classes or instructors...');
  await tabTo(page, search);
  await page.keyboard.type(cls.name);
  const card = page.getByRole('article', { name: cls.name });
  await tabTo(page, card.getByRole('button', { name: 'Book Now' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Class booked successfully!', { exact: true }).first()).toBeVisible();
  const member = await memberByEmail(stack, ACCOUNTS.standard);
  const rows = await rest<{ type: string; payment_status: string }[]>(
    stack,
    'GET',
    `/rest/v1/bookings?class_id=eq.${cls.id}&member_id=eq.${member!.id}&select=type,payment_status`,
  );
  expect(rows, 'one completed paid booking in the database').toEqual([{ type: 'paid', payment_status: 'completed' }]);
  await expect(card.getByRole('button', { name: 'Booked' })).toBeVisible();
});

/** A member cancels an upcoming booking on /mybookings; the spot comes back. */
test('member cancels a booking on My Bookings', async ({ page, stack }) => {
  const cls = await createClass(stack, `Cancel Me ${unique('c')}`, 3);
  const booked = await bookAs(stack, ACCOUNTS.standard, cls.id);
  expect(booked.status, `setup booking: ${JSON.stringify(booked)}`).toBe('booked');
  await signInAs(page, stack, ACCOUNTS.standard);
  await page.goto('/mybookings');
  await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: new RegExp(`^Cancel ${escapeRegExp(cls.name)}`) }).click();
  await expect(page.getByText('Booking cancelled', { exact: true }).first()).toBeVisible();
  const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&select=id`);
  expect(rows, 'the booking row is gone').toEqual([]);
  const [after] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
  expect(after?.spots_left, 'the spot is free again').toBe(cls.spots_left);
});

/** A pay-as-you-go member whose trial is used pays on the local test checkout and is booked. */
test('pay-as-you-go member pays on the local test checkout', async ({ page, stack, baseURL }) => {
  const cls = await createClass(stack, `Boxing ${unique('p')}`, 2, 10, 10);
  await signInAs(page, stack, ACCOUNTS.payg);
  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  const member = await memberByEmail(stack, ACCOUNTS.payg);
  const rows = await rest<{ type: string; payment_status: string }[]>(
    stack,
    'GET',
    `/rest/v1/bookings?class_id=eq.${cls.id}&member_id=eq.${member!.id}&select=type,payment_status`,
  );
  expect(rows, 'one completed pay-as-you-go booking after payment').toEqual([{ type: 'payg', payment_status: 'completed' }]);
});

/** A signed-in member who is not an admin is turned away from every admin URL (spec section 6). */
test('a member is refused at every admin URL', async ({ page, stack }) => {
  await signInAs(page, stack, ACCOUNTS.premium);
  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await page.waitForURL((url) => !url.pathname.startsWith('/admin') || url.pathname === '/admin/login', { timeout: 15_000 });
    await expect(
      page.getByRole('heading', { name: /Management|Analytics|Generate Recurring Classes/ }),
      `${route}: no admin screen for a member`,
    ).toHaveCount(0);
  }
  // The database refuses too, whatever the screens do.
  const refused = await fetch(`${stack.url}/rest/v1/rpc/admin_stats`, {
    method: 'POST',
    headers: await authHeaders(stack, ACCOUNTS.premium),
    body: '{}',
  });
  expect(refused.status, 'admin_stats refuses a member').toBeGreaterThanOrEqual(400);
});
