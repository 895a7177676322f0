import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, PASSWORD, signInAs, signInContext } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { unique } from '../support/names';
import { createClass, memberByEmail, rest } from '../support/rest';

// "Done when": a parent adds two children, signs for each, books both and themselves
// into Kids Club in one step (one checkout for the children's paid places), sees three places in
// My Bookings, and the admin's register lists the children with the parent's phone and a health flag.

/** A date of birth `years` years ago, as the date field takes it. */
const bornYearsAgo = (years: number) => {
  const d = new Date(Date.now() - 40 * 86_400_000);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
};

async function addChild(page: Page, name: string, years: number, heartCondition: boolean) {
  await page.getByRole('button', { name: 'Add a child' }).click();
  const form = page.getByRole('form', { name: 'Add a child' });
  await form.getByRole('textbox', { name: /Child's name/ }).fill(name);
  await form.getByLabel(/Date of birth/).fill(bornYearsAgo(years));
  await form.getByRole('textbox', { name: /Who may collect them/ }).fill('Grandma Sue');
  await form.getByRole('button', { name: 'Add a child' }).click();

  await page.getByRole('button', { name: `Sign for ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Sign for ${name}`, level: 1 })).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }).check();
  for (const group of await page.getByRole('group').all()) {
    const heart = /heart condition/.test((await group.getAttribute('aria-label')) ?? (await group.textContent()) ?? '');
    await group.getByRole('radio', { name: heart && heartCondition ? 'Yes' : 'No' }).check();
  }
  await page.getByRole('checkbox', { name: /I consent to Finer Fitness keeping my health answers/ }).check();
  await page.getByRole('button', { name: 'Sign and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Family', level: 1 })).toBeVisible();
}

test('a parent adds two children and books them and themselves into Kids Club in one step; the register lists the children', async ({
  page,
  browser,
  stack,
  baseURL,
}) => {
  const email = `${unique('parent')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Pat Parent' });
  const parent = (await memberByEmail(stack, email))!;
  await rest(stack, 'PATCH', `/rest/v1/members?id=eq.${parent.id}`, { phone: '07700 900123' });
  const cls = await createClass(stack, unique('Kids Club'), 3, 12, 6);
  await rest(stack, 'PATCH', `/rest/v1/classes?id=eq.${cls.id}`, { min_age: 4, max_age: 12 });

  await signInAs(page, stack, email, { password: PASSWORD });
  await page.goto('/family');
  await addChild(page, 'Ava Parent', 6, true);
  await addChild(page, 'Ben Parent', 9, false);

  await page.goto(`/book?classId=${cls.id}`);
  const form = page.getByRole('form', { name: 'Book for your family' });
  await form.getByRole('checkbox', { name: 'Ava Parent' }).check();
  await form.getByRole('checkbox', { name: 'Ben Parent' }).check();
  // The parent's own place is their free trial; each child's is the class's £6.
  await expect(form.getByText('3 places · Total to pay: £12.00 (your free trial covers your place)')).toBeVisible();
  await form.getByRole('button', { name: 'Pay £12.00 for 3 places' }).click();

  await page.getByRole('button', { name: /^Pay £12/ }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(isPaymentReturn(baseURL!), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });

  await page.goto('/mybookings');
  const places = page.getByRole('listitem').filter({ hasText: cls.name });
  await expect(places).toHaveCount(3);
  await expect(places.filter({ hasText: 'For Ava Parent' })).toHaveCount(1);
  await expect(places.filter({ hasText: 'For Ben Parent' })).toHaveCount(1);

  const admin = await browser.newContext({ baseURL });
  await signInContext(admin, stack, ACCOUNTS.admin, { admin: true });
  const adminPage = await admin.newPage();
  await adminPage.goto(`/admin/register/${cls.id}`);
  const ava = adminPage.getByRole('row').filter({ hasText: 'Ava Parent' });
  await expect(ava).toContainText('Pat Parent');
  await expect(ava).toContainText('07700 900123');
  await expect(ava).toContainText('Grandma Sue');
  await expect(ava).toContainText('Ask before class');
  await expect(adminPage.getByRole('row').filter({ hasText: 'Ben Parent' })).toContainText('No flags');
  await admin.close();
});
