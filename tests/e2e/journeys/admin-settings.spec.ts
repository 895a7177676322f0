import { expect, test } from '../fixtures';
import { ACCOUNTS, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';

// Admin > Settings in sections (decision 0107): an overview that leads into each section, a side
// list from lg up, an "All settings" link back on a phone, and each section at its own address.
// It only reads, so the shared demo admin is enough.

test('admin finds a settings section, moves to another, and each stays at its own address', async ({ page, stack }, testInfo) => {
  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const overview = page.getByRole('navigation', { name: 'Settings', exact: true });
  await expect(overview.getByRole('link')).toHaveCount(6);
  expect(formatViolations(await runAxe(page)), 'axe on the Settings overview').toBe('');
  await page.screenshot({ path: testInfo.outputPath('settings-overview.png'), fullPage: true });

  const side = page.getByRole('navigation', { name: 'Settings sections' });
  const wide = page.viewportSize()!.width >= 1024;
  if (wide) {
    await expect(side).toBeVisible();
    await expect(side.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    // By keyboard: the side list's links are ordinary links.
    await side.getByRole('link', { name: 'Review requests' }).focus();
    await page.keyboard.press('Enter');
  } else {
    await expect(side).toBeHidden();
    await overview.getByRole('link', { name: /^Review requests/ }).click();
  }
  await expect(page).toHaveURL(/\/admin\/settings\/review-requests$/);
  await expect(page.getByRole('button', { name: 'Save review requests' })).toBeVisible();
  // The chosen section takes the focus, so a screen reader carries on from there.
  await expect(page.getByRole('region', { name: 'Review requests settings' })).toBeFocused();
  expect(formatViolations(await runAxe(page)), 'axe on Settings > Review requests').toBe('');
  await page.screenshot({ path: testInfo.outputPath('settings-review-requests.png'), fullPage: true });

  if (wide) {
    await side.getByRole('link', { name: 'Offers' }).click();
    await expect(side.getByRole('link', { name: 'Offers' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'All settings' })).toBeHidden();
  } else {
    await page.getByRole('link', { name: 'All settings' }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await overview.getByRole('link', { name: /^Offers/ }).click();
  }
  await expect(page).toHaveURL(/\/admin\/settings\/offers$/);
  const referral = page.getByRole('form', { name: 'Referral reward' });
  await expect(referral.getByRole('button', { name: 'Save referral reward' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save review requests' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('settings-offers.png'), fullPage: true });

  // The address is the section: opened again, and back in the history, it is the same place.
  await page.reload();
  await expect(referral.getByRole('button', { name: 'Save referral reward' })).toBeVisible({ timeout: 20_000 });
  await page.goBack();
  await expect(page).toHaveURL(wide ? /\/admin\/settings\/review-requests$/ : /\/admin\/settings$/);
});
