import { expect, test } from '../fixtures';
import { createConfirmedMember, signInAs } from '../support/accounts';
import { createClass } from '../support/rest';
import { unique } from '../support/names';

/** A new free-trial sign-up reads and signs the terms and waiver and answers the PAR-Q before the first booking. */
test('a new free-trial sign-up must accept and answer before the first booking', async ({ page, stack, consoleErrors }) => {
  const cls = await createClass(stack, `First Class ${unique('d')}`, 2);
  const email = `${unique('signer')}@example.test`;
  await createConfirmedMember(
    stack,
    email,
    'signer-pass-123',
    { full_name: 'Sid Signer', signup_source: 'free-trial' },
    { signDocuments: false },
  );
  await signInAs(page, stack, email, { password: 'signer-pass-123' });

  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
  await expect(
    page.getByText('Before your first class, please read and sign our terms and waiver and answer the health questions').first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/agreements\?next=%2Fmy-schedule/);
  await expect(page.getByRole('heading', { name: 'Before you train', level: 1 })).toBeVisible();
  // The browser logs the refused request (400): the refusal is the point of this step.
  expect(consoleErrors.take()).toEqual([expect.stringContaining('status of 400')]);

  await page.getByRole('checkbox', { name: 'I have read and accept the Terms of Membership' }).check();
  await page.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }).check();
  for (const group of await page.getByRole('group').all()) await group.getByRole('radio', { name: 'No' }).check();
  await page.getByRole('checkbox', { name: /I consent to Finer Fitness keeping my health answers/ }).check();
  await expect(page.getByRole('textbox', { name: 'Type your full name to sign' })).toHaveValue('Sid Signer');
  await page.getByRole('button', { name: 'Sign and continue' }).click();

  await expect(page).toHaveURL(/\/my-schedule$/);
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByText('Free trial class booked! You are now on Pay-As-You-Go.', { exact: true }).first()).toBeVisible();
});

/** The footer's Privacy, Terms and Cookies open the studio's current published versions (the spec left them dead). */
test("the footer's legal links open the studio's current documents", async ({ page }) => {
  await page.goto('/');
  const legal = page.getByRole('list', { name: 'Legal' });
  for (const [link, title] of [
    ['Privacy', 'Privacy Notice'],
    ['Terms', 'Terms of Membership'],
    ['Cookies', 'Cookie Notice'],
  ] as const) {
    await legal.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByText(/Version \d+/).first()).toBeVisible();
  }
});
