import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { runJobsAt } from '../support/jobs';
import { rest } from '../support/rest';
import { unique } from '../support/names';

// A member checks in with the day's door code shown on the admin's check-in screen;
// another booking nobody checked in becomes a no-show when the jobs run 30 minutes after the start.

test('a member checks in with the door code, and a booking nobody checked in becomes a no-show', async ({
  page,
  browser,
  stack,
  baseURL,
}, testInfo) => {
  const name = `Door Code Class ${unique('dc')}`;
  const start = new Date(Date.now() + 10 * 60_000);
  const [cls] = await rest<{ id: string }[]>(stack, 'POST', '/rest/v1/classes?select=id', {
    name,
    description: 'Created by an e2e journey',
    duration: 45,
    start_time: start.toISOString(),
    trainer: 'Coach E2E',
    type: 'Group',
    capacity: 10,
    price_payg: null,
  });
  // The journey's own two members (a retry or the other width books new ones): the demo members'
  // plan allowances are other journeys' to use.
  const tag = unique('door');
  const present = { email: `${tag}-present@studio.test`, name: `Petra Present ${tag.slice(-4)}` };
  const absent = { email: `${tag}-absent@studio.test`, name: `Abel Absent ${tag.slice(-4)}` };
  for (const who of [present, absent]) {
    await createConfirmedMember(stack, who.email, PASSWORD, { full_name: who.name });
    await rest(stack, 'POST', '/rest/v1/rpc/book_class', { p_class_id: cls!.id }, await authHeaders(stack, who.email));
  }

  // The studio's tablet: today's door code and the class with both names.
  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  await page.goto('/admin/check-in');
  const codeHeading = page.getByRole('heading', { name: "Today's door code" });
  await expect(codeHeading).toBeVisible({ timeout: 20_000 });
  const code = (await page.locator('section', { has: codeHeading }).locator('p.font-mono').textContent({ timeout: 20_000 }))!.trim();
  expect(code).toMatch(/^\d{4}$/);
  await expect(page.getByRole('region', { name: new RegExp(name) })).toContainText('2 booked · 0 checked in');
  expect(formatViolations(await runAxe(page)), '/admin/check-in').toBe('');

  // A member at the door.
  const memberContext = await browser.newContext();
  const phone = await memberContext.newPage();
  await signInAs(phone, stack, present.email);
  await phone.goto('/check-in');
  await expect(phone.getByLabel(/Door code/)).toBeVisible({ timeout: 20_000 });
  expect(formatViolations(await runAxe(phone)), '/check-in').toBe('');
  await phone.getByLabel(/Door code/).fill(code);
  await phone.getByRole('button', { name: 'Check in' }).click();
  await expect(phone.getByText(`You're checked in to ${name}`)).toBeVisible({ timeout: 20_000 });
  await memberContext.close();

  // 31 minutes after the start the jobs mark the other booking a no-show.
  const output = await runJobsAt(stack, baseURL!, new Date(start.getTime() + 31 * 60_000), testInfo.outputPath('test-payments.json'));
  expect(output).toMatch(/no-shows: marked \d+ bookings?/);
  const marks = await rest<{ attendance: string; members: { email: string } }[]>(
    stack,
    'GET',
    `/rest/v1/bookings?class_id=eq.${cls!.id}&select=attendance,members(email)`,
  );
  expect(marks.map((m) => `${m.members.email} ${m.attendance}`).sort()).toEqual([`${absent.email} no_show`, `${present.email} attended`]);

  // The member's record shows it.
  await page.goto('/admin/members');
  await page.getByLabel('Search members').fill(absent.email);
  await page.getByRole('button', { name: `Attendance: ${absent.name}` }).click();
  const record = page.getByRole('dialog', { name: `Attendance: ${absent.name}` });
  await expect(record.getByRole('row', { name: new RegExp(`${name}.*No-show`) })).toBeVisible({ timeout: 20_000 });
  await record.getByRole('button', { name: 'Close' }).click();

  // The reports on Analytics, with their charts, tables and heat map, pass axe too.
  await page.goto('/admin/analytics');
  await expect(page.getByRole('table', { name: 'Revenue by product line' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('table', { name: /Fill rate heat map/ })).toBeVisible();
  expect(formatViolations(await runAxe(page)), '/admin/analytics').toBe('');
});
