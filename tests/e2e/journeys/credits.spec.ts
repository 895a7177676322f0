import { expect, test } from '../fixtures';
import { createConfirmedMember, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { memberByEmail, rest } from '../support/rest';
import { unique } from '../support/names';

// A package bought with the test card gives sessions the member can see and spend on a
// One-to-One, told before confirming what the booking uses; cancelling in time gives it back.

type Credit = { used_at: string | null };

test('member buys a Bronze Package, sees 10 sessions and books a One-to-One with one', async ({ page, stack, baseURL }) => {
  const email = `${unique('bronze')}@example.test`;
  await createConfirmedMember(stack, email, 'bronze-pass-123', { full_name: 'Bo Bronze' });
  const start = new Date(Date.now() + 3 * 24 * 3600_000);
  start.setUTCHours(11, 0, 0, 0);
  const name = `Personal Training ${unique('pt')}`;
  const [session] = await rest<{ id: string }[]>(stack, 'POST', '/rest/v1/classes?select=id', {
    name,
    description: 'One-to-one coaching',
    duration: 60,
    start_time: start.toISOString(),
    // A trainer of its own: one trainer has one One-to-One session at a time (classes_one_to_one_slot_idx).
    trainer: `Coach ${unique('e2e')}`,
    type: 'One-to-One',
    capacity: 1,
    price_payg: null,
  });

  await signInAs(page, stack, email, { password: 'bronze-pass-123' });
  await page.goto('/membership');
  await page.getByRole('tab', { name: 'Training Packages' }).click();
  await page.getByRole('button', { name: 'Buy Bronze Package', exact: true }).click();
  await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });

  await page.goto('/membership');
  await expect(page.getByRole('heading', { name: 'Your sessions and passes' })).toBeVisible();
  await expect(page.getByText('10 personal-training sessions')).toBeVisible();
  // With a billing history the page used to scroll sideways on a phone.
  await expect(page.getByRole('heading', { name: 'Billing history' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Receipt for / }).first()).toBeAttached();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is no wider than the screen').toBeLessThanOrEqual(0);

  await page.goto(`/book?classId=${session!.id}`);
  await expect(page.getByRole('radio', { name: 'Personal-training session' })).toBeChecked();
  await expect(page.getByText(/^Uses 1 personal-training session, expires /)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page.getByText('Booking confirmed! Redirecting to My Bookings...').first()).toBeVisible();

  const member = await memberByEmail(stack, email);
  const credits = await rest<Credit[]>(stack, 'GET', `/rest/v1/credits?member_id=eq.${member!.id}&select=used_at`);
  expect(
    credits.filter((c) => c.used_at !== null),
    'one session used',
  ).toHaveLength(1);
  expect(credits, 'ten sessions granted once').toHaveLength(10);
  await page.goto('/dashboard');
  await expect(page.getByText('9 personal-training sessions')).toBeVisible();
});
