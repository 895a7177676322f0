import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { createConfirmedMember, signInAs } from '../support/accounts';
import { isPaymentReturn } from '../support/checkout';
import { runJobsAt } from '../support/jobs';
import { findClassCard } from '../support/page-helpers';
import { createClass, memberByEmail, rest } from '../support/rest';
import { unique } from '../support/names';

// Decision 0009: a membership renews by itself, a failed renewal is retried and then lapses, all
// driven by `npm run jobs -- --at <time>` a month (and a week) ahead. The jobs act on every
// member of the run's stack, so playwright.config.ts runs this file after every other journey.

const DAY_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;
const LONDON_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

type Membership = { status: string; period_end: string; renews: boolean; ended_at: string | null };

async function membershipOf(stack: Parameters<typeof rest>[0], email: string): Promise<Membership> {
  const member = await memberByEmail(stack, email);
  const [row] = await rest<Membership[]>(
    stack,
    'GET',
    `/rest/v1/memberships?member_id=eq.${member!.id}&select=status,period_end,renews,ended_at`,
  );
  return row!;
}

async function paidPaymentsOf(stack: Parameters<typeof rest>[0], email: string): Promise<number> {
  const member = await memberByEmail(stack, email);
  const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/payments?member_id=eq.${member!.id}&status=eq.paid&select=id`);
  return rows.length;
}

/** A new member buys Standard on /membership with one of the local test checkout's cards. */
async function buyStandard(page: Page, stack: Parameters<typeof rest>[0], baseURL: string, card: RegExp): Promise<string> {
  const email = `${unique('plan')}@example.test`;
  await createConfirmedMember(stack, email, 'plan-pass-123', { full_name: 'Rene Renewal' });
  await signInAs(page, stack, email, { password: 'plan-pass-123' });
  await page.goto('/membership');
  await page.getByRole('button', { name: 'Buy Standard', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Decline', exact: true })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: card }).click();
  await expect(page).toHaveURL(isPaymentReturn(baseURL), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received', level: 1 })).toBeVisible({ timeout: 20_000 });
  return email;
}

// My Membership's one card says plan, status and renewal, each once.
const statusRegion = (page: Page) => page.getByRole('region', { name: 'My Membership' });
const historyRows = (page: Page) => page.getByRole('region', { name: 'Billing history' }).getByRole('row');

test('a Standard membership renews a month later, once however often the jobs run', async ({ page, stack, baseURL }, testInfo) => {
  const email = await buyStandard(page, stack, baseURL!, /card that always pays/);
  const first = await membershipOf(stack, email);
  expect(first).toMatchObject({ status: 'active', renews: true });
  await page.goto('/membership');
  await expect(statusRegion(page).getByText(LONDON_DATE.format(new Date(first.period_end)))).toBeVisible();
  await expect(historyRows(page)).toHaveCount(2); // header + the first month

  const renewal = new Date(new Date(first.period_end).getTime() + MINUTE_MS);
  const payments = testInfo.outputPath('test-payments.json');
  expect(await runJobsAt(stack, baseURL!, renewal, payments)).toMatch(/renewals: charged \d+ renewals?: \d+ paid/);
  await runJobsAt(stack, baseURL!, renewal, payments);
  expect(await paidPaymentsOf(stack, email), 'the first month and one renewal, however often the jobs ran').toBe(2);

  const renewed = await membershipOf(stack, email);
  expect(renewed.status).toBe('active');
  expect(new Date(renewed.period_end).getTime() - new Date(first.period_end).getTime()).toBeGreaterThanOrEqual(28 * DAY_MS);
  expect((await memberByEmail(stack, email))?.membership_tier).toBe('standard');
  await page.reload();
  await expect(statusRegion(page).getByText('Next renewal')).toBeVisible();
  await expect(statusRegion(page).getByText(LONDON_DATE.format(new Date(renewed.period_end)))).toBeVisible();
  await expect(historyRows(page)).toHaveCount(3);
  await expect(historyRows(page).nth(1)).toContainText('Standard membership');
  await expect(historyRows(page).nth(1)).toContainText('Paid');
});

test('a card that declines later: past due with Update card a month later, pay-as-you-go after the last retry', async ({
  page,
  stack,
  baseURL,
}, testInfo) => {
  const email = await buyStandard(page, stack, baseURL!, /card that declines later/);
  const { period_end } = await membershipOf(stack, email);
  const due = new Date(period_end);
  const payments = testInfo.outputPath('test-payments.json');

  await runJobsAt(stack, baseURL!, new Date(due.getTime() + MINUTE_MS), payments);
  expect(await membershipOf(stack, email)).toMatchObject({ status: 'past_due', renews: true });
  expect((await memberByEmail(stack, email))?.membership_tier, 'a past-due member keeps booking').toBe('standard');
  await page.goto('/membership');
  const banner = statusRegion(page).getByRole('alert');
  await expect(banner).toContainText('Your membership payment failed.');
  await expect(banner).toContainText(`We will try again on ${LONDON_DATE.format(new Date(due.getTime() + DAY_MS))}.`);
  await expect(banner.getByRole('button', { name: 'Update card' })).toBeVisible();
  // The email goes through the outbox and the stack's SMTP server like every other.
  await expect
    .poll(async () => (await stack.inbox.list()).some((m) => m.to === email && m.subject === 'Payment failed: please update your card'), {
      timeout: 45_000,
    })
    .toBe(true);

  for (const days of [1, 3, 7]) await runJobsAt(stack, baseURL!, new Date(due.getTime() + days * DAY_MS + MINUTE_MS), payments);
  expect(await membershipOf(stack, email)).toMatchObject({ status: 'lapsed', renews: false });
  expect(await memberByEmail(stack, email)).toMatchObject({ membership_tier: 'payg', has_used_trial: true });
  expect(await paidPaymentsOf(stack, email), 'only the first month was ever paid').toBe(1);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Membership' })).toBeVisible();
  await expect(statusRegion(page).getByText('Status', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Buy Standard', exact: true })).toBeVisible();
});

test('cancel renewal keeps the plan until its end; the jobs a month later make the member pay-as-you-go', async ({
  page,
  stack,
  baseURL,
}, testInfo) => {
  const email = await buyStandard(page, stack, baseURL!, /card that always pays/);
  const { period_end } = await membershipOf(stack, email);
  const ends = LONDON_DATE.format(new Date(period_end));
  await page.goto('/membership');
  await statusRegion(page).getByRole('button', { name: 'Cancel renewal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel renewal?' });
  await expect(dialog).toContainText(`Your membership stays until ${ends}, then you pay per class.`);
  await dialog.getByRole('button', { name: 'Cancel renewal' }).click();
  await expect(statusRegion(page).getByText(`Ends on ${ends}`)).toBeVisible();
  await expect(statusRegion(page).getByRole('button', { name: 'Resume membership' })).toBeVisible();

  const report = await runJobsAt(
    stack,
    baseURL!,
    new Date(new Date(period_end).getTime() + MINUTE_MS),
    testInfo.outputPath('test-payments.json'),
  );
  expect(report).toMatch(/cancelled memberships: ended \d+ memberships? at their period end/);
  expect(await membershipOf(stack, email)).toMatchObject({ status: 'cancelled', renews: false, ended_at: expect.any(String) });
  expect((await memberByEmail(stack, email))?.membership_tier).toBe('payg');
  expect(await paidPaymentsOf(stack, email), 'nothing charged after cancelling').toBe(1);
});

test('a free trial ends after 7 days by the jobs: pay-as-you-go, and booking a class asks for payment', async ({
  page,
  stack,
  baseURL,
}, testInfo) => {
  const email = `${unique('trialend')}@example.test`;
  await createConfirmedMember(stack, email, 'trial-pass-123', { full_name: 'Tess Trial', signup_source: 'free-trial' });
  const trial = await memberByEmail(stack, email);
  expect(trial?.membership_tier).toBe('trial');
  await signInAs(page, stack, email, { password: 'trial-pass-123' });
  await page.goto('/dashboard');
  await expect(page.getByText(/^Your free trial ends in [67] days$/)).toBeVisible();

  const report = await runJobsAt(stack, baseURL!, new Date(Date.now() + 8 * DAY_MS), testInfo.outputPath('test-payments.json'));
  expect(report).toMatch(/trials: ended \d+ free trials?/);
  expect(await memberByEmail(stack, email)).toMatchObject({ membership_tier: 'payg', has_used_trial: true });

  const cls = await createClass(stack, `Trial over ${unique('c')}`, 2, 10, 10);
  const card = await findClassCard(page, cls.name);
  await card.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('button', { name: 'Pay £10.00' })).toBeVisible({ timeout: 20_000 });
});
