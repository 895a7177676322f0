import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, createConfirmedMember, PASSWORD } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { settle } from '../support/page-helpers';
import { bookAs, rest } from '../support/rest';
import { unique } from '../support/names';

// Decision 0027: a coach signs in on a phone, lands on their classes, opens today's class, sees the
// roster with the health flag and checks a member in. The journey makes its own trainer, coach
// account, member and class (the stack is shared with other journeys).

test('a coach signs in on a phone, sees the roster and checks a member in', async ({ page, stack, consoleErrors }) => {
  const tag = unique('coach');
  const coachEmail = `${tag}@example.test`;
  const memberEmail = `${tag}-member@example.test`;
  const memberName = `Mo ${tag}`;
  await createConfirmedMember(stack, coachEmail, PASSWORD, { full_name: `Coach ${tag}` });
  await createConfirmedMember(stack, memberEmail, PASSWORD, { full_name: memberName });
  const [trainer] = await rest<{ id: string }[]>(stack, 'POST', '/rest/v1/trainers?select=id', { name: `Coach ${tag}` });
  await rest(
    stack,
    'POST',
    '/rest/v1/rpc/link_trainer_account',
    { p_trainer_id: trainer!.id, p_email: coachEmail },
    await authHeaders(stack, ACCOUNTS.admin),
  );
  const className = `Coached Class ${tag}`;
  const [cls] = await rest<{ id: string }[]>(stack, 'POST', '/rest/v1/classes?select=id', {
    name: className,
    description: 'Created by an e2e journey',
    duration: 45,
    start_time: new Date(Date.now() + 15 * 60_000).toISOString(),
    trainer_id: trainer!.id,
    type: 'Group',
    capacity: 10,
    price_payg: null,
  });
  await bookAs(stack, memberEmail, cls!.id);

  // Signing in with no page asked for lands a coach on their classes.
  // Once the prerendered form is hydrated (settle), signing in goes to /coach.
  await page.goto('/signin', { waitUntil: 'load' });
  await settle(page);
  const form = page.getByRole('form', { name: 'Sign In' });
  await form.getByRole('textbox', { name: 'Email' }).fill(coachEmail);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/coach$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Your classes' })).toBeVisible({ timeout: 20_000 });
  const today = page.getByRole('region', { name: 'Today' });
  await expect(today.getByRole('link', { name: new RegExp(className) })).toContainText('1 booked · 0 checked in', { timeout: 20_000 });
  expect(formatViolations(await runAxe(page)), '/coach').toBe('');

  await today.getByRole('link', { name: new RegExp(className) }).click();
  await expect(page.getByRole('heading', { name: className })).toBeVisible({ timeout: 20_000 });
  const checkIn = page.getByRole('button', { name: `Check in ${memberName}` });
  await expect(checkIn).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('No flags')).toBeVisible();
  expect(formatViolations(await runAxe(page)), '/coach/classes/:id').toBe('');
  await checkIn.click();
  await expect(checkIn).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
  await expect(page.getByText('1 booked · 1 checked in')).toBeVisible();

  // The database recorded it, and the coach cannot open another trainer's class.
  const marks = await rest<{ attendance: string }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls!.id}&select=attendance`);
  expect(marks).toEqual([{ attendance: 'attended' }]);
  const [other] = await rest<{ id: string }[]>(stack, 'GET', `/rest/v1/classes?select=id&trainer_id=neq.${trainer!.id}&limit=1`);
  await page.goto(`/coach/classes/${other!.id}`);
  await expect(page.getByRole('alert')).toHaveText('This is not one of your classes', { timeout: 20_000 });
  // The browser logs the refused request (403).
  expect(consoleErrors.take()).toEqual([expect.stringContaining('status of 403')]);
});
