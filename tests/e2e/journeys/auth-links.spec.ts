import { STUDIO } from '../../../src/config/studio';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { createConfirmedMember } from '../support/accounts';
import { waitForEmail } from '../support/inbox';
import { escapeRegExp, unique } from '../support/names';

// An email link works in whichever browser opens it. A reset asked for on one device is
// finished on another (a phone: a fresh browser context of its own, 375 px wide, that never asked
// and so holds no PKCE code verifier), and a used link says so and leads to a new one.

const PHONE = { width: 375, height: 812 };
const RESET_SUBJECT = `Reset your ${STUDIO.name} password`;

/** A second browser (its own storage and cookies) at a phone's width, whose page fails the test on a console error. */
async function phoneBrowser(newContext: () => Promise<BrowserContext>): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error on ${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught on ${page.url()}: ${err.message}`));
  return { context, page, errors };
}

/** The link of the newest reset email to `email`: the site's callback with the token hash. */
async function resetLink(stack: Parameters<typeof waitForEmail>[0], email: string, origin: string): Promise<string> {
  const mail = await waitForEmail(stack, email, RESET_SUBJECT);
  const link = (mail.links ?? []).find((l) => l.includes('token_hash='));
  expect(link, `a token_hash link in "${mail.subject}": ${JSON.stringify(mail.links)}`).toMatch(
    new RegExp(`^${escapeRegExp(origin)}/auth/callback\\?token_hash=pkce_[0-9a-f]{56}&type=recovery$`),
  );
  return link!;
}

/**
 * /signin's Forgot your password?. The page is prerendered and a press before the app has hydrated
 * does nothing (only the pages that start after load replay early presses), so press until it opens.
 */
async function openResetView(page: Page): Promise<void> {
  await page.goto('/signin');
  await expect(async () => {
    await page.getByRole('button', { name: 'Forgot your password?' }).click({ timeout: 2_000 });
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

/** Signs in on the Sign In form the page shows (already hydrated: no reload of the prerendered page). */
async function signInWith(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign In' });
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

test('a reset asked for in one browser is finished on a phone, and the new password signs in', async ({
  page,
  browser,
  stack,
  baseURL,
  consoleErrors,
}) => {
  const email = `${unique('reset')}@example.test`;
  await createConfirmedMember(stack, email, 'old-pass-123', { full_name: 'Rita Reset' });

  // The first browser asks for the link (supabase-js keeps its PKCE code verifier there).
  await openResetView(page);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Password reset email sent! Check your inbox.').first()).toBeVisible();
  const link = await resetLink(stack, email, baseURL!);

  // The phone opens it: a new password, without ever having asked.
  const phone = await phoneBrowser(() => browser.newContext({ viewport: PHONE, baseURL }));
  try {
    await phone.page.goto(link);
    await expect(phone.page.getByRole('heading', { name: 'Set a New Password' })).toBeVisible({ timeout: 20_000 });
    // The used token is out of the address bar: a reload stays on this step.
    await expect(phone.page).toHaveURL(/\/auth\/callback\?type=recovery$/);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth), 'the screen fits the phone').toBeLessThanOrEqual(
      PHONE.width,
    );
    await phone.page.getByLabel('New Password', { exact: true }).fill('new-pass-456');
    await phone.page.getByLabel('Confirm New Password').fill('new-pass-456');
    await phone.page.getByRole('button', { name: 'Update Password' }).click();
    await expect(phone.page.getByText('Password updated successfully!').first()).toBeVisible();
    await expect(phone.page).toHaveURL(/\/my-schedule$/, { timeout: 20_000 });
    expect(await phone.page.evaluate(() => localStorage.getItem('ffEmail')), 'ffEmail stored on the phone').toBe(email);
    expect(phone.errors, 'console errors on the phone').toEqual([]);
  } finally {
    await phone.context.close();
  }

  // Back in the first browser, still on /signin: the old password is refused, the new one signs in.
  await page.getByRole('button', { name: 'Back to Sign In' }).click();
  await signInWith(page, email, 'old-pass-123');
  await expect(page.getByText(/^Invalid email or password\./).first()).toBeVisible();
  // The refused sign-in's 400, which the browser logs.
  expect(consoleErrors.take()).toEqual([expect.stringContaining('status of 400')]);
  await signInWith(page, email, 'new-pass-456');
  await expect(page.getByText('Signed in successfully!').first()).toBeVisible();
  await expect(page).toHaveURL(/\/my-schedule$/, { timeout: 20_000 });
});

test('a used reset link says it has expired and leads to a new one', async ({ page, browser, stack, baseURL }) => {
  const email = `${unique('used')}@example.test`;
  await createConfirmedMember(stack, email, 'old-pass-123', { full_name: 'Uma Used' });
  const asked = await fetch(`${stack.url}/auth/v1/recover?redirect_to=${encodeURIComponent(`${baseURL}/auth/callback?type=recovery`)}`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, code_challenge: 'c'.repeat(43), code_challenge_method: 'plain' }),
  });
  expect(asked.status, 'the reset request').toBe(200);
  const link = await resetLink(stack, email, baseURL!);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a New Password' })).toBeVisible({ timeout: 20_000 });

  // Opened again, on a phone: already used.
  const phone = await phoneBrowser(() => browser.newContext({ viewport: PHONE, baseURL }));
  try {
    await phone.page.goto(link);
    await expect(phone.page.getByRole('alert')).toHaveText('This link has expired, request a new one', { timeout: 20_000 });
    // GoTrue's 403 otp_expired for the used token, which the browser logs.
    expect(phone.errors.splice(0)).toEqual([expect.stringContaining('status of 403')]);
    await expect(phone.page.getByText('Sign-in failed, please try again.')).toHaveCount(0);
    await phone.page.getByRole('link', { name: 'Request a New Link' }).click();
    await expect(phone.page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await expect(phone.page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();

    // The same view loaded directly: /signin is prerendered as Sign In and switches after hydration.
    await phone.page.goto('/signin?view=reset');
    await expect(phone.page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();
    expect(phone.errors, 'console errors on the phone').toEqual([]);
  } finally {
    await phone.context.close();
  }
});

/**
 * A link sent before the token-hash links was GoTrue's `{{ .ConfirmationURL }}`: /verify with the same token,
 * which lands on the callback with a PKCE `?code=`. It keeps working in the browser that asked;
 * elsewhere it says where it works instead of "Sign-in failed".
 */
test('an older /verify reset link still works in the browser that asked, and says where it works elsewhere', async ({
  page,
  browser,
  stack,
  baseURL,
}) => {
  const email = `${unique('older')}@example.test`;
  await createConfirmedMember(stack, email, 'old-pass-123', { full_name: 'Olga Older' });
  await openResetView(page);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Password reset email sent! Check your inbox.').first()).toBeVisible();
  const tokenHash = new URL(await resetLink(stack, email, baseURL!)).searchParams.get('token_hash')!;
  const older = `${stack.url}/auth/v1/verify?token=${tokenHash}&type=recovery&redirect_to=${encodeURIComponent(`${baseURL}/auth/callback?type=recovery`)}`;

  // Another browser: GoTrue spends the token and hands out a code only the asking browser can use.
  const phone = await phoneBrowser(() => browser.newContext({ viewport: PHONE, baseURL }));
  let landing: string;
  try {
    await phone.page.goto(older);
    await expect(phone.page).toHaveURL(/\/auth\/callback\?type=recovery&code=/);
    landing = phone.page.url();
    await expect(phone.page.getByRole('alert')).toHaveText(
      'This reset link only works in the browser that asked for it. Open it there, or request a new one here.',
    );
    await expect(phone.page.getByRole('link', { name: 'Request a New Link' })).toBeVisible();
    expect(phone.errors, 'console errors on the phone').toEqual([]);
  } finally {
    await phone.context.close();
  }

  // The asking browser exchanges that code: the new-password step.
  await page.goto(landing);
  await expect(page.getByRole('heading', { name: 'Set a New Password' })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('New Password', { exact: true }).fill('code-pass-789');
  await page.getByLabel('Confirm New Password').fill('code-pass-789');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully!').first()).toBeVisible();
  await expect(page).toHaveURL(/\/my-schedule$/, { timeout: 20_000 });
});
