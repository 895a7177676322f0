import { expect, test } from '../fixtures';
import { createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { waitForEmail } from '../support/inbox';
import { unique } from '../support/names';
import { bookAs, createClass, rest } from '../support/rest';

// A member without a guest pass pays the class's pay-as-you-go price for their guest
// with the test card; the guest is emailed the class with a cancel link and is on the class.

test('member adds a guest paying the pay-as-you-go price with the test card; the guest is emailed and on the class', async ({
  page,
  stack,
  baseURL,
}) => {
  const email = `${unique('host')}@example.test`;
  const guestEmail = `${unique('guest')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Hana Host' });
  const cls = await createClass(stack, unique('Guest Spin'), 3, 8, 12);
  expect((await bookAs(stack, email, cls.id)).status, 'the host has a place (their free trial)').toBe('booked');

  await signInAs(page, stack, email, { password: PASSWORD });
  await page.goto('/mybookings');
  await page.getByRole('button', { name: new RegExp(`^Add a guest to ${cls.name} on `) }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a guest' });
  await dialog.getByLabel("Guest's name").fill('Gus Guest');
  await dialog.getByLabel("Guest's email").fill(guestEmail);
  // No guest pass: the form says what the member pays before they confirm.
  await expect(dialog.getByText('You pay £12 by card on the next page; their place is held while you pay.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Pay £12 and add guest' }).click();

  await page.getByRole('button', { name: /^Pay £12/ }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });

  const invite = await waitForEmail(stack, guestEmail, `You are booked on ${cls.name} as Hana Host's guest`);
  expect(invite.text).toContain('/guest/cancel?token=');
  const places = await rest<{ guest_name: string; payment_status: string }[]>(
    stack,
    'GET',
    `/rest/v1/guest_places?class_id=eq.${cls.id}&select=guest_name,payment_status`,
  );
  expect(places).toEqual([{ guest_name: 'Gus Guest', payment_status: 'completed' }]);

  await page.goto('/mybookings');
  await expect(page.getByRole('list', { name: new RegExp(`^Guests on ${cls.name} on `) }).getByText('Gus Guest')).toBeVisible();
});
