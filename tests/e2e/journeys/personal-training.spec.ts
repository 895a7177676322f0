import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { unique } from '../support/names';
import { memberByEmail, rest } from '../support/rest';

// A member with a personal-training session opens Personal training, picks a trainer
// and a time that says which session it uses, and books it with that session.

type Credit = { used_at: string | null; booking_id: string | null };

test('member with a personal-training session books a One-to-One in Personal training', async ({ page, stack }) => {
  const email = `${unique('pt')}@example.test`;
  await createConfirmedMember(stack, email, 'pt-pass-1234', { full_name: 'Pat Trainee' });
  const member = await memberByEmail(stack, email);
  const admin = await memberByEmail(stack, ACCOUNTS.admin);

  // A trainer with one session three days ahead, made by the same function the hourly jobs run.
  const [trainer] = await rest<{ id: string; name: string }[]>(stack, 'POST', '/rest/v1/trainers?select=id,name', {
    name: `Coach ${unique('e2e')}`,
    bio: 'Strength and mobility, one to one.',
  });
  const start = new Date(Date.now() + 3 * 24 * 3600_000);
  start.setUTCHours(11, 0, 0, 0);
  await rest(stack, 'POST', '/rest/v1/trainer_one_off_slots', { trainer_id: trainer!.id, start_time: start.toISOString(), duration: 60 });
  await rest(stack, 'POST', '/rest/v1/rpc/generate_one_to_one_slots', { p_now: new Date().toISOString() });
  // A session granted by the studio (as admin_grant_credits records one), valid 30 days.
  await rest(stack, 'POST', '/rest/v1/credits', {
    member_id: member!.id,
    kind: 'personal_training',
    source: 'admin_grant',
    grant_key: `grant:${crypto.randomUUID()}`,
    seq: 1,
    granted_by: admin!.id,
    reason: 'Journey',
    valid_from: new Date().toISOString(),
    expires_at: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
  });

  await signInAs(page, stack, email, { password: 'pt-pass-1234' });
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Personal training' }).click();
  await expect(page.getByRole('heading', { name: 'Personal training', level: 1 })).toBeVisible();
  await page.getByText(trainer!.name).click();
  // Until the new trainer's times arrive, the first trainer's (the demo's, with many) stay listed.
  const time = page.getByRole('button', { name: /Uses 1 personal-training session, expires / });
  await expect(time).toHaveCount(1);
  await expect(time).toBeVisible();
  expect(formatViolations(await runAxe(page)), 'axe on Personal training').toBe('');
  await time.click();

  const form = page.getByRole('form', { name: 'Book this class' });
  await expect(form.getByRole('radio', { name: 'Personal-training session' })).toBeChecked();
  await expect(form.getByText(/^Uses 1 personal-training session, expires /)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is no wider than the screen').toBeLessThanOrEqual(0);
  await form.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page.getByText('Booking confirmed! Redirecting to My Bookings...').first()).toBeVisible();

  const credits = await rest<Credit[]>(stack, 'GET', `/rest/v1/credits?member_id=eq.${member!.id}&select=used_at,booking_id`);
  expect(credits).toHaveLength(1);
  expect(credits[0]!.used_at, 'the session was used by the booking').not.toBeNull();
  expect(credits[0]!.booking_id).not.toBeNull();
});
