import { expect, test } from '../fixtures';
import { createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { waitForEmail } from '../support/inbox';
import { runJobsAt } from '../support/jobs';
import { memberByEmail, rest } from '../support/rest';
import { unique } from '../support/names';

// Decisions 0100 and 0101 through the whole stack: a visitor buys a gift voucher on the test card
// page, the hourly job run "tomorrow" emails the recipient their code (the local SMTP inbox), the
// recipient (a member of the journey's own) redeems it from the email's link and pays part of a
// Drop-In Session from the balance, the card paying the rest.

const londonDate = (at: Date) => at.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

test('a visitor gives a gift voucher; the recipient gets it on the day, redeems it and spends it', async ({
  page,
  stack,
  baseURL,
}, testInfo) => {
  const buyerEmail = `${unique('giver')}@example.test`;
  const recipientEmail = `${unique('gifted')}@example.test`;
  const tomorrow = londonDate(new Date(Date.now() + 86_400_000));

  // A visitor: no sign-in.
  await page.goto('/gift-vouchers');
  const form = page.getByRole('form', { name: 'Buy a gift voucher' });
  await form.getByLabel('Amount in pounds').fill('50', { timeout: 20_000 });
  await form.getByLabel("Recipient's name").fill('Robin Gifted');
  await form.getByLabel("Recipient's email").fill(recipientEmail);
  await form.getByLabel(/^Message/).fill('Happy birthday, see you at class!');
  await form.getByLabel('Delivery date').fill(tomorrow);
  await form.getByLabel('Your name').fill('Sam Giver');
  await form.getByLabel('Your email').fill(buyerEmail);
  await expect(form.getByText(/can be redeemed for 12 months from today/)).toBeVisible();
  await form.getByRole('button', { name: 'Pay by card' }).click();
  await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
  await expect(page).toHaveURL((url) => url.href.startsWith(baseURL!) && url.pathname === '/gift-vouchers/return', { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Thank you: your gift voucher is paid' })).toBeVisible({ timeout: 20_000 });
  await waitForEmail(stack, buyerEmail, 'Receipt: Gift voucher for Robin Gifted (£50.00)');

  // Not before its day; on the day the job emails it, once.
  expect((await stack.inbox.list()).some((m) => m.to === recipientEmail && m.subject.includes('gift voucher'))).toBe(false);
  const deliveryRun = new Date(`${tomorrow}T00:30:00Z`);
  expect(await runJobsAt(stack, baseURL!, deliveryRun, testInfo.outputPath('test-payments.json'))).toContain(
    'gift vouchers: emailed 1 gift voucher due today',
  );
  expect(await runJobsAt(stack, baseURL!, deliveryRun, testInfo.outputPath('test-payments.json'))).toContain(
    'gift vouchers: emailed 0 gift vouchers due today',
  );
  const gift = await waitForEmail(stack, recipientEmail, 'Sam Giver has sent you a gift voucher for £50.00');
  expect(gift.text).toContain('Their message: Happy birthday, see you at class!');
  const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(gift.text ?? '')?.[1];
  expect(code).toBeTruthy();
  const link = gift.links?.map((l) => new URL(l)).find((u) => u.pathname === '/redeem');
  expect(link?.searchParams.get('code')).toBe(code);

  // The recipient joins, follows the link and redeems it.
  await createConfirmedMember(stack, recipientEmail, PASSWORD, { full_name: 'Robin Gifted' });
  await signInAs(page, stack, recipientEmail);
  await page.goto(`${link!.pathname}${link!.search}`);
  await page.getByRole('form', { name: 'Redeem a gift voucher' }).getByRole('button', { name: 'Redeem' }).click({ timeout: 20_000 });
  await expect(page.getByText('£50.00 has been added to your balance.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Your balance: £50.00' })).toBeVisible();

  // A Drop-In Session (£115): the balance pays £50 first, the card the rest.
  await page.goto('/membership');
  await page.getByRole('tab', { name: 'Training Packages' }).click();
  const card = page.getByRole('group', { name: 'Buy Drop-In Session' });
  await expect(card.getByText('Your balance pays £50.00 of it: £65.00 by card.')).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Buy Drop-In Session' }).click();
  await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });

  const member = (await memberByEmail(stack, recipientEmail))!;
  const payments = await rest<{ amount: number; balance_used: number; description: string }[]>(
    stack,
    'GET',
    `/rest/v1/payments?member_id=eq.${member.id}&status=eq.paid&select=amount,balance_used,description`,
  );
  expect(payments).toEqual([{ amount: 115, balance_used: 50, description: 'Drop-In Session (£115), £50.00 from your balance' }]);
  const ledger = await rest<{ amount: number; kind: string }[]>(
    stack,
    'GET',
    `/rest/v1/balance_entries?member_id=eq.${member.id}&select=amount,kind&order=created_at`,
  );
  expect(ledger).toEqual([
    { amount: 50, kind: 'voucher' },
    { amount: -50, kind: 'spent' },
  ]);
});
