import { expect, test } from '../fixtures';
import { createConfirmedMember, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { createClass, memberByEmail, rest } from '../support/rest';
import { escapeRegExp, unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';

// The money rules (decision 0010) as members meet them: past the plan's allowance a class is paid for by
// card (and the card says so first), and a member holds at most one unpaid spot, which they can
// go back and pay for from My Bookings.

const PASSWORD = 'fair-use-pass-1';

async function newMember(stack: Parameters<typeof createConfirmedMember>[0], label: string) {
  const email = `${unique(label)}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: `Fay ${label}` });
  const member = await memberByEmail(stack, email);
  return { email, id: member!.id };
}

const spotsLeft = async (stack: Parameters<typeof rest>[0], classId: string) =>
  (await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${classId}&select=spots_left`))[0]!.spots_left;

test('a Standard member past their 12 classes is told the price and sent to the card checkout', async ({ page, stack, baseURL }) => {
  const { email, id } = await newMember(stack, 'allowance');
  await rest(stack, 'PATCH', `/rest/v1/members?id=eq.${id}`, { membership_tier: 'standard', has_used_trial: true });
  // Twelve plan bookings made this month: the allowance is used. Their classes were yesterday, so
  // they stay off the upcoming lists other journeys read (the allowance counts when booked).
  for (let i = 0; i < 12; i += 1) {
    const cls = await createClass(stack, `Allowance ${unique(String(i))}`, -1, 10);
    await rest(stack, 'POST', '/rest/v1/bookings', { member_id: id, class_id: cls.id, type: 'paid' });
  }
  const thirteenth = await createClass(stack, `Thirteenth ${unique('c')}`, 4, 10, 10);
  await signInAs(page, stack, email, { password: PASSWORD });
  const card = await findClassCard(page, thirteenth.name);
  await expect(card.getByText("You've used your 12 classes this month: this one is £10.00.")).toBeVisible();
  await card.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('button', { name: 'Decline' }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${thirteenth.id}&select=id`);
  expect(rows, 'nothing booked on the plan past its allowance').toEqual([]);
});

test('a second checkout releases the first hold, and Complete payment returns to the same checkout', async ({ page, stack, baseURL }) => {
  const { email, id } = await newMember(stack, 'holds');
  await rest(stack, 'PATCH', `/rest/v1/members?id=eq.${id}`, { has_used_trial: true });
  const first = await createClass(stack, `First Hold ${unique('h')}`, 2, 3, 10);
  const second = await createClass(stack, `Second Hold ${unique('h')}`, 2, 3, 10);
  await signInAs(page, stack, email, { password: PASSWORD });

  // A spot held on the first class, then left on the checkout page.
  await (await findClassCard(page, first.name)).getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible({ timeout: 20_000 });
  expect(await spotsLeft(stack, first.id), 'the hold takes its spot').toBe(first.spots_left - 1);

  // The second checkout gives the first spot back.
  await (await findClassCard(page, second.name)).getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible({ timeout: 20_000 });
  const checkoutPage = page.url();
  expect(await spotsLeft(stack, first.id), 'the first hold is released').toBe(first.spots_left);

  // My Bookings shows only the second hold, pending, with its two ways out.
  await page.goto('/mybookings');
  const pending = page.getByRole('listitem').filter({ hasText: second.name });
  await expect(pending.getByText('Payment pending')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: first.name })).toHaveCount(0);
  await expect(pending.getByRole('button', { name: new RegExp(`^Release spot in ${escapeRegExp(second.name)}`) })).toBeVisible();

  // Complete payment goes back to the very checkout, where paying books the class.
  await pending.getByRole('button', { name: new RegExp(`^Complete payment for ${escapeRegExp(second.name)}`) }).click();
  await expect(page).toHaveURL(checkoutPage, { timeout: 20_000 });
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  const member = await memberByEmail(stack, email);
  const rows = await rest<{ class_id: string; payment_status: string }[]>(
    stack,
    'GET',
    `/rest/v1/bookings?member_id=eq.${member!.id}&select=class_id,payment_status`,
  );
  expect(rows, 'one paid booking, on the second class').toEqual([{ class_id: second.id, payment_status: 'completed' }]);
});
