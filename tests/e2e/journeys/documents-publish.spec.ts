import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, PASSWORD, signInAs, signInContext } from '../support/accounts';
import { unique } from '../support/names';
import { createClass } from '../support/rest';

// "Done when": an admin publishes a new waiver and an existing member is asked to sign
// it again at their next booking (the terms they signed are not asked again). A new version makes
// every member of the stack sign again, so playwright.config.ts runs this after every other journey.

test('an admin publishes a new waiver and an existing member signs it again before their next booking', async ({
  page,
  browser,
  baseURL,
  stack,
  consoleErrors,
}) => {
  const email = `${unique('resigner')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Rita Resigner' });
  const cls = await createClass(stack, `After The New Waiver ${unique('w')}`, 2);

  const admin = await browser.newContext({ baseURL });
  await signInContext(admin, stack, ACCOUNTS.admin, { admin: true });
  const adminPage = await admin.newPage();
  await adminPage.goto('/admin/documents');
  await adminPage.getByRole('button', { name: 'Publish a new version of the Liability Waiver' }).click();
  await adminPage
    .getByRole('textbox', { name: /^Text/ })
    .fill('Exercise carries a risk of injury.\n\nOutdoor sessions: dress for the weather.');
  await adminPage.getByRole('textbox', { name: /What changed/ }).fill('Outdoor sessions added');
  adminPage.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Publish a new Liability Waiver? Every member will be asked to sign it before their next booking.');
    void dialog.accept();
  });
  await adminPage.getByRole('button', { name: 'Publish' }).click();
  await expect(adminPage.getByText(/^Liability Waiver version \d+ published$/).first()).toBeVisible();
  await admin.close();

  await signInAs(page, stack, email, { password: PASSWORD });
  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
  await expect(page).toHaveURL(/\/agreements\?next=%2Fmy-schedule/);
  // The refused booking is logged by the browser (400): the refusal is the point of this step.
  expect(consoleErrors.take()).toEqual([expect.stringContaining('status of 400')]);
  await expect(page.getByText('Outdoor sessions: dress for the weather.')).toBeVisible();
  // Only what changed is asked again: the terms and the PAR-Q the member answered still stand.
  await expect(page.getByRole('checkbox', { name: 'I have read and accept the Terms of Membership' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }).check();
  await page.getByRole('button', { name: 'Sign and continue' }).click();

  await expect(page).toHaveURL(/\/my-schedule$/);
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Booked' })).toBeVisible();
});
