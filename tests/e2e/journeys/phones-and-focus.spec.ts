import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, signInAs } from '../support/accounts';
import { escapeRegExp, unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';
import { createClass, rest } from '../support/rest';

// "Phones and focus": the admin lists and /schedule fit a phone's width (no page scrolls
// sideways, every row's actions on screen), /schedule narrows to a day kept in the URL, and after
// Book Now or Cancel keyboard focus stays with the class. Runs at 375 px and at 1280 px.

/** Nothing to scroll sideways to: the document is no wider than the screen. */
async function expectNoSidewaysScroll(page: Page, at: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${at}: the page is ${scrollWidth} px wide on a ${width} px screen`).toBeLessThanOrEqual(width);
}

/** The chip a London day has on /schedule's picker ("Sun 29 Nov", British order). */
function chipName(iso: string): string {
  const at = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/London', ...options }).format(new Date(iso));
  return `${at({ weekday: 'short' })} ${at({ day: 'numeric' })} ${at({ month: 'short' })}`;
}

test('the admin lists fit the screen: every row’s actions are on it, nothing scrolls sideways', async ({ page, stack }) => {
  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  const width = page.viewportSize()!.width;
  const lists = [
    { path: '/admin/classes', heading: 'Classes Management', action: /^Delete .+ on .+ at / },
    { path: '/admin/bookings', heading: 'Bookings Management', action: /^Cancel booking of .+ for / },
    { path: '/admin/members', heading: 'Members Management', action: /^Put on plan: / },
  ];
  for (const { path, heading, action } of lists) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const first = page.getByRole('button', { name: action }).first();
      await expect(first).toBeVisible({ timeout: 20_000 });
      await expectNoSidewaysScroll(page, path);
      // The last action of the first row is within the screen, not past a table's scrolled edge.
      const row = page.getByRole('row').filter({ has: first });
      const last = row.getByRole('button').last();
      const box = (await last.boundingBox())!;
      expect(box.x + box.width, `${path}: the row's last action ends inside the ${width} px screen`).toBeLessThanOrEqual(width);
    });
  }
  await test.step('/admin/members: the search placeholder is whole', async () => {
    // The placeholder's text (in the box's own font) plus the box's padding fits the box: it is never cut.
    const fit = await page.getByRole('searchbox', { name: 'Search members' }).evaluate((el: HTMLInputElement) => {
      const style = getComputedStyle(el);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const needed = context.measureText(el.placeholder).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      return { needed, available: el.clientWidth };
    });
    expect(fit.needed, `the placeholder needs ${fit.needed} px of ${fit.available}`).toBeLessThanOrEqual(fit.available);
  });
});

test('the undelivered emails panel fits the screen: the long address and error wrap, Retry is on it', async ({ page, stack }, testInfo) => {
  const subject = `Your booking is confirmed ${unique('u')}`;
  const to = `${'a-very-long-member-address-that-never-breaks'.repeat(2)}@studio-example-domain.test`;
  // A failed email is an event with its email delivery given up on (decision 0040).
  const [event] = await rest<{ id: string }[]>(stack, 'POST', '/rest/v1/notification_events', { type: 'studio_message' });
  await rest(stack, 'POST', '/rest/v1/notification_deliveries', {
    event_id: event!.id,
    channel: 'email',
    to_email: to,
    subject,
    body_text: 'Hello',
    attempts: 6,
    failed_at: new Date().toISOString(),
    next_attempt_at: new Date(Date.now() + 86_400_000).toISOString(),
    last_error: `550-5.1.1 The email account that you tried to reach does not exist: ${to};RecipientAddressRejectedByTheServerWithoutAnyFurtherExplanation`,
  });
  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  await page.goto('/admin/messages');
  const retry = page.getByRole('button', { name: `Retry the email to ${to}: ${subject}` });
  await expect(retry).toBeVisible({ timeout: 20_000 });
  await retry.scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(page, '/admin/messages');
  const width = page.viewportSize()!.width;
  const box = (await retry.boundingBox())!;
  expect(box.x + box.width, `Retry ends inside the ${width} px screen`).toBeLessThanOrEqual(width);
  const panel = page.getByRole('region', { name: 'Undelivered emails' });
  await testInfo.attach('undelivered-emails', { body: await panel.screenshot(), contentType: 'image/png' });
});

test('a visitor picks a day on /schedule; the URL keeps it through back and forward', async ({ page, stack }) => {
  const cls = await createClass(stack, `Day Pick ${unique('d')}`, 3);
  await page.goto('/schedule');
  const picker = page.getByRole('toolbar', { name: 'Choose a day' });
  const all = picker.getByRole('button', { name: 'All days' });
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expectNoSidewaysScroll(page, '/schedule');

  const day = picker.getByRole('button', { name: chipName(cls.start_time), exact: true });
  await day.click();
  await expect(page).toHaveURL(/\/schedule\?day=\d{4}-\d{2}-\d{2}$/);
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  const list = page.getByRole('list', { name: 'Upcoming classes' });
  await expect(list.getByRole('article', { name: cls.name })).toBeVisible();
  await expect(list.getByRole('heading', { level: 2 }), 'one day: one day heading').toHaveCount(1);
  await expectNoSidewaysScroll(page, '/schedule with a day');
  const dayUrl = page.url();

  await page.goBack();
  await expect(page).toHaveURL(/\/schedule$/);
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  await page.goForward();
  await expect(page).toHaveURL(dayUrl);
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(list.getByRole('article', { name: cls.name })).toBeVisible();

  // A shared link opens on its day.
  await page.goto(dayUrl);
  await expect(picker.getByRole('button', { name: chipName(cls.start_time), exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('article', { name: cls.name })).toBeVisible();
});

test('after Book Now and Cancel by keyboard, focus stays with the class', async ({ page, stack }) => {
  const cls = await createClass(stack, `Focus ${unique('f')}`, 3);
  await signInAs(page, stack, ACCOUNTS.premium);

  const card = await findClassCard(page, cls.name);
  await card.getByRole('button', { name: 'Book Now' }).focus();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('button', { name: 'Booked' })).toBeVisible({ timeout: 20_000 });
  await expect(card, 'the card holds focus (nothing in it can be pressed)').toBeFocused();

  await page.goto('/mybookings');
  const cancel = page.getByRole('button', { name: new RegExp(`^Cancel ${escapeRegExp(cls.name)} on `) });
  page.once('dialog', (dialog) => void dialog.accept());
  await cancel.focus();
  await page.keyboard.press('Enter');
  const line = page.getByText(new RegExp(`^${escapeRegExp(cls.name)} on .+ is cancelled\\. It is listed under Cancelled\\.$`));
  await expect(line).toBeFocused({ timeout: 20_000 });
});
