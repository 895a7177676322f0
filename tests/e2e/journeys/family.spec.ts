import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, PASSWORD, signInAs, signInContext } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { waitForEmail } from '../support/inbox';
import { unique } from '../support/names';
import { createClass, memberByEmail, rest } from '../support/rest';

// "Done when": a parent adds two children, signs the waiver and answers the children's health
// questionnaire for each (never the adult PAR-Q), presses Book Now on Kids Club and is asked who is
// coming, books both and themselves in one step (one checkout for the children's paid places), sees
// three places in My Bookings, gets one confirmation naming everyone, a receipt listing each place,
// and the admin's register lists the children with the parent's phone and the child's own health flag.

/** A date of birth `years` years ago, as the date field takes it. */
const bornYearsAgo = (years: number) => {
  const d = new Date(Date.now() - 40 * 86_400_000);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
};

async function addChild(page: Page, name: string, years: number, asthma: boolean) {
  await page.getByRole('button', { name: 'Add a child' }).click();
  const form = page.getByRole('form', { name: 'Add a child' });
  await form.getByRole('textbox', { name: /Child's name/ }).fill(name);
  await form.getByLabel(/Date of birth/).fill(bornYearsAgo(years));
  await form.getByRole('textbox', { name: /Who may collect them/ }).fill('Grandma Sue');
  await form.getByRole('button', { name: 'Add a child' }).click();

  await page.getByRole('button', { name: `Sign for ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Sign for ${name}`, level: 1 })).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }).check();
  // The children's questionnaire: nothing of the adult PAR-Q (decision 0093).
  await expect(page.getByRole('heading', { name: "Children's health questionnaire" })).toBeVisible();
  await expect(page.getByText(/pregnant/i)).toHaveCount(0);
  for (const group of await page.getByRole('group').all()) {
    const isAsthma = /asthma/.test((await group.getAttribute('aria-label')) ?? (await group.textContent()) ?? '');
    await group.getByRole('radio', { name: isAsthma && asthma ? 'Yes' : 'No' }).check();
  }
  await page.getByRole('checkbox', { name: new RegExp(`I consent to Finer Fitness keeping ${name}'s health answers`) }).check();
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

  // Book Now on the class's card asks who is coming: it never books the parent alone.
  await page.goto('/my-schedule');
  await page.getByRole('searchbox', { name: 'Search classes' }).fill(cls.name);
  const card = page.getByRole('article', { name: cls.name });
  await card.getByRole('link', { name: 'Book Now' }).click();
  await expect(page).toHaveURL(new RegExp(`/book\\?classId=${cls.id}`));
  const form = page.getByRole('form', { name: 'Book for your family' });
  await expect(form.getByRole('group', { name: 'Who is coming?' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Book this class' })).toHaveCount(0);
  const held = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?select=id&class_id=eq.${cls.id}`);
  expect(held).toEqual([]);
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

  // One confirmation, naming everyone booked.
  const confirmation = await waitForEmail(stack, email, 'Booking confirmed');
  expect(confirmation.text?.replace(/\s+/g, ' ')).toContain(
    `You have booked 3 places on ${cls.name} with Coach E2E: you, Ava Parent and Ben Parent.`,
  );

  // The receipt lists each place: who, what covered it, its price.
  await page.goto('/membership');
  const history = page.getByRole('region', { name: 'Billing history' });
  // One card per payment on a phone, a table on a desktop: never cut, never a sideways page.
  const receiptButton = history.getByRole('button', { name: `Receipt for ${cls.name} - 3 places (2 paid)` });
  await receiptButton.scrollIntoViewIfNeeded();
  await expect(receiptButton).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await receiptButton.click();
  const receipt = page.getByRole('dialog', { name: 'Receipt' });
  const lines = receipt.getByRole('table', { name: 'Places' }).getByRole('row');
  await expect(lines.nth(1)).toHaveText(/Pat Parent\s*Covered by your free trial\s*£0\.00/);
  await expect(lines.nth(2)).toHaveText(/Ava Parent\s*Paid\s*£6\.00/);
  await expect(lines.nth(3)).toHaveText(/Ben Parent\s*Paid\s*£6\.00/);
  await expect(receipt).toContainText('£12.00');

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
