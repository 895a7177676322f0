import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { waitForEmail } from '../support/inbox';
import { escapeRegExp, unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';
import { createClass, memberByEmail, rest } from '../support/rest';

// Decision 0010: an admin's cancel of a paid booking leaves a refund owed, listed under Bookings
// Management, settled there by hand or through the provider (the local test provider here).

type Refund = { reason: string; amount: number; refunded_at: string | null; provider_refund_id: string | null };

async function refundsFor(stack: Parameters<typeof rest>[0], className: string): Promise<Refund[]> {
  return rest<Refund[]>(
    stack,
    'GET',
    `/rest/v1/refunds_owed?description=eq.${encodeURIComponent(`${className} - PAYG Booking`)}&select=reason,amount,refunded_at,provider_refund_id`,
  );
}

/** The admin cancels the member's booking of `className` from Bookings Management. */
async function cancelFromBookings(page: Page, className: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search bookings' }).fill(className);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: new RegExp(`^Cancel booking of .* for ${escapeRegExp(className)}$`) }).click();
  await expect(page.getByText('Booking cancelled successfully', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
}

test('an admin cancels paid bookings: each is listed under Refunds owed, refunded via the provider or marked refunded', async ({
  page,
  stack,
  baseURL,
}) => {
  const paidByCard = await createClass(stack, `Spin ${unique('r')}`, 3, 10, 10);
  const paidElsewhere = await createClass(stack, `Pilates ${unique('r')}`, 3, 10, 10);

  await test.step('a pay-as-you-go member pays for a class on the local test checkout', async () => {
    await signInAs(page, stack, ACCOUNTS.payg);
    await (await findClassCard(page, paidByCard.name)).getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
    await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
    await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('and another paid outside the card provider (recorded as paid by the studio)', async () => {
    const member = await memberByEmail(stack, ACCOUNTS.payg);
    const hold = await rest<{ booking_id: string; checkout_reference: string }>(stack, 'POST', '/rest/v1/rpc/create_class_payment_hold', {
      p_member_id: member!.id,
      p_class_id: paidElsewhere.id,
      p_hold_minutes: 30,
    });
    await rest(stack, 'PATCH', `/rest/v1/bookings?id=eq.${hold.booking_id}`, { payment_status: 'completed', hold_expires_at: null });
    await rest(stack, 'PATCH', `/rest/v1/payments?checkout_reference=eq.${hold.checkout_reference}`, {
      status: 'paid',
      paid_at: new Date().toISOString(),
    });
  });

  await test.step('the admin cancels both bookings; both appear under Refunds owed', async () => {
    await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
    await page.goto('/admin/bookings');
    await cancelFromBookings(page, paidByCard.name);
    await cancelFromBookings(page, paidElsewhere.name);
    const owed = page.getByRole('region', { name: 'Refunds owed' });
    for (const cls of [paidByCard, paidElsewhere]) {
      const row = owed.getByRole('row', { name: new RegExp(escapeRegExp(cls.name)) });
      await expect(row).toContainText('£10.00');
      await expect(row).toContainText('Booking cancelled by an admin');
    }
    expect(await refundsFor(stack, paidByCard.name)).toEqual([
      { reason: 'admin_cancelled', amount: 10, refunded_at: null, provider_refund_id: null },
    ]);
  });

  await test.step('the card payment is refunded through the (test) provider, which marks it refunded', async () => {
    const owed = page.getByRole('region', { name: 'Refunds owed' });
    page.once('dialog', (d) => void d.accept());
    await owed
      .getByRole('row', { name: new RegExp(escapeRegExp(paidByCard.name)) })
      .getByRole('button', { name: /via SumUp$/ })
      .click();
    await expect(page.getByText('Refunded through SumUp', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    await expect(owed.getByRole('row', { name: new RegExp(escapeRegExp(paidByCard.name)) })).toHaveCount(0);
    const [refund] = await refundsFor(stack, paidByCard.name);
    expect(refund?.refunded_at, 'marked refunded').not.toBeNull();
    expect(refund?.provider_refund_id, "the test provider's refund reference").toMatch(/^test-refund-/);
  });

  await test.step('the other is not offered through the provider and is marked refunded by hand', async () => {
    const owed = page.getByRole('region', { name: 'Refunds owed' });
    const row = owed.getByRole('row', { name: new RegExp(escapeRegExp(paidElsewhere.name)) });
    await expect(row).toContainText('Not paid through SumUp');
    await expect(row.getByRole('button', { name: /via SumUp$/ })).toHaveCount(0);
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /^Mark £10\.00 to .* as refunded$/ }).click();
    await expect(page.getByText('Marked as refunded', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    await expect(row).toHaveCount(0);
    const [refund] = await refundsFor(stack, paidElsewhere.name);
    expect(refund).toMatchObject({ reason: 'admin_cancelled', provider_refund_id: null });
    expect(refund?.refunded_at).not.toBeNull();
  });
});

// "Free cancellation up to 12 hours before the start" holds for a class paid by card.
test('a pay-as-you-go member cancels a paid class in time: told first, emailed, refunded, receipted', async ({ page, stack, baseURL }) => {
  const email = `${unique('refund')}@example.test`;
  await createConfirmedMember(stack, email, 'refund-pass-123', { full_name: 'Rae Refund' });
  const member = await memberByEmail(stack, email);
  await rest(stack, 'PATCH', `/rest/v1/members?id=eq.${member!.id}`, { membership_tier: 'payg', has_used_trial: true });
  const cls = await createClass(stack, `Refund Spin ${unique('r')}`, 3, 10, 10);

  await test.step('the member pays £10 for the class on the test checkout', async () => {
    await signInAs(page, stack, email, { password: 'refund-pass-123' });
    await (await findClassCard(page, cls.name)).getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
    await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
    await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('cancels three days ahead: the question says it is refunded, and so does the email', async () => {
    await page.goto('/mybookings');
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await page.getByRole('button', { name: new RegExp(`^Cancel ${escapeRegExp(cls.name)}`) }).click();
    await expect(page.getByText('Booking cancelled', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    expect(asked).toContain('Cancelling now is free: if you paid by card for this class, the payment is refunded to your card.');
    const mail = await waitForEmail(stack, email, `Booking cancelled: ${cls.name}`);
    expect(mail.text).toContain('The £10.00 you paid by card will be refunded to your card; you will get a receipt when it is.');
  });

  await test.step('the studio pays it back through the (test) provider and the refund receipt arrives', async () => {
    await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
    await page.goto('/admin/bookings');
    const owed = page.getByRole('region', { name: 'Refunds owed' });
    const row = owed.getByRole('row', { name: new RegExp(escapeRegExp(cls.name)) });
    await expect(row).toContainText('£10.00', { timeout: 20_000 });
    await expect(row).toContainText('Cancelled by the member in time (free cancellation)');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /via SumUp$/ }).click();
    await expect(page.getByText('Refunded through SumUp', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    expect(await refundsFor(stack, cls.name)).toMatchObject([{ reason: 'member_cancelled_in_time', amount: 10 }]);
    const receipt = await waitForEmail(stack, email, 'Refund: ');
    expect(receipt.text).toContain(`We have refunded £10.00 for ${cls.name} - PAYG Booking.`);
  });
});
