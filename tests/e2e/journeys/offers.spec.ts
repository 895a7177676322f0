import { expect, test } from '../fixtures';
import { authHeaders, createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { memberByEmail, rest } from '../support/rest';
import { unique } from '../support/names';

// Decisions 0083 and 0084 through the whole stack: a friend arrives by a member's referral link,
// signs in, sees a promo code's price before paying, pays it with the test card, and both get the
// referral reward once the payment has gone through.

test('a referred friend buys a Drop-In Session with a promo code; both get the referral reward', async ({
  page,
  stack,
  baseURL,
  consoleErrors,
}) => {
  const referrerEmail = `${unique('referrer')}@example.test`;
  const friendEmail = `${unique('friend')}@example.test`;
  await createConfirmedMember(stack, referrerEmail, PASSWORD, { full_name: 'Rhea Referrer' });
  await createConfirmedMember(stack, friendEmail, PASSWORD, { full_name: 'Finn Friend' });
  const code = unique('E2E')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20)
    .toUpperCase();
  await rest(stack, 'POST', '/rest/v1/promo_codes', {
    code,
    percent_off: 10,
    plan_slugs: ['dropin'],
    expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    max_uses: 5,
  });
  const referral = await rest<{ code: string }>(
    stack,
    'POST',
    '/rest/v1/rpc/my_referral',
    {},
    {
      ...(await authHeaders(stack, referrerEmail)),
      'content-type': 'application/json',
    },
  );

  await signInAs(page, stack, friendEmail);
  await page.goto(`/membership?ref=${referral.code}`);
  await expect(page.getByText(/You joined through a friend/)).toBeVisible({ timeout: 20_000 });

  await page.getByRole('tab', { name: 'Training Packages' }).click();
  const card = page.getByRole('group', { name: 'Buy Drop-In Session' });
  await card.getByRole('button', { name: 'Have a promo code?' }).click();
  await card.getByRole('textbox', { name: 'Promo code', exact: true }).fill(code.toLowerCase());
  await card.getByRole('button', { name: 'Apply' }).click();
  await expect(card.getByRole('status')).toContainText(`£103.50: code ${code}, £11.50 off.`);
  await card.getByRole('button', { name: 'Buy Drop-In Session for £103.50' }).click();
  await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });

  const friend = (await memberByEmail(stack, friendEmail))!;
  const referrer = (await memberByEmail(stack, referrerEmail))!;
  const [payment] = await rest<{ amount: number; discount: number; description: string }[]>(
    stack,
    'GET',
    `/rest/v1/payments?member_id=eq.${friend.id}&status=eq.paid&select=amount,discount,description`,
  );
  expect(payment).toMatchObject({ amount: 103.5, discount: 11.5, description: `Drop-In Session (£115), promo code ${code}: £11.50 off` });
  const rewards = await rest<{ member_id: string }[]>(
    stack,
    'GET',
    `/rest/v1/credits?source=eq.referral&member_id=in.(${friend.id},${referrer.id})&select=member_id`,
  );
  expect(rewards.map((r) => r.member_id).sort()).toEqual([friend.id, referrer.id].sort());

  // The same code a second time is refused before paying, in the database's words.
  await page.goto('/membership');
  await page.getByRole('tab', { name: 'Training Packages' }).click();
  const again = page.getByRole('group', { name: 'Buy Drop-In Session' });
  await again.getByRole('button', { name: 'Have a promo code?' }).click();
  await again.getByRole('textbox', { name: 'Promo code', exact: true }).fill(code);
  await again.getByRole('button', { name: 'Apply' }).click();
  await expect(again.getByText(`You have already used the promo code ${code}.`)).toBeVisible();
  // The refusal is the database's 400 answer, which the browser logs: expected here, and only it.
  expect(consoleErrors.take()).toEqual([expect.stringMatching(/status of 400 \(Bad Request\)$/)]);
});
