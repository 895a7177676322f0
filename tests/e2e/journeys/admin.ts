import type { Page } from 'playwright-core';
import { ACCOUNTS, PASSWORD, authHeaders } from '../support/accounts';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import { openRoute, settle } from '../support/page-helpers';
import { bookAs, rest } from '../support/rest';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Follows a sidebar link; on a phone the sidebar sits behind its menu button. */
async function adminNav(page: Page, label: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: label, exact: true }).click();
  await settle(page);
}

async function toast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 20_000 });
}

/**
 * The admin portal end to end (spec "Admin screens"): sign in, add a weekly repeating class,
 * cancel a member's booking, read analytics against the database's figures, regenerate the
 * timetable. Regeneration deletes every class, so this journey runs last.
 */
const adminPortal: Journey = {
  name: 'admin adds a repeating class, cancels a booking, reads analytics, regenerates',
  async run({ page, stack, width }) {
    await openRoute(page, '/admin/login');
    await page.getByRole('heading', { name: 'Admin Portal' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(ACCOUNTS.admin);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await toast(page, 'Welcome, Admin!');
    await page.getByRole('heading', { name: 'Classes Management' }).waitFor();

    // Add Class, repeating weekly for three weeks: three classes.
    const name = `Kettlebells ${width} ${Date.now().toString(36)}`;
    const first = new Date(Date.now() + 5 * 24 * 3600_000);
    const until = new Date(first.getTime() + 14 * 24 * 3600_000);
    await page.getByRole('button', { name: 'Add Class' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Class' });
    await dialog.getByLabel('Class name').fill(name);
    await dialog.getByLabel('Description').fill('Full-body kettlebell conditioning.');
    await dialog.getByLabel('Date', { exact: true }).fill(isoDate(first));
    await dialog.getByLabel('Time', { exact: true }).fill('18:30');
    await dialog.getByLabel('Trainer').fill('Coach Sam');
    await dialog.getByLabel('Capacity').fill('12');
    await dialog.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Weekly' });
    await dialog.getByLabel('Repeat until').fill(isoDate(until));
    await dialog.getByRole('button', { name: 'Create Class' }).click();
    await toast(page, '3 classes created successfully!');
    const created = await rest<{ id: string; start_time: string }[]>(stack, 'GET', `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id,start_time&order=start_time`);
    expect(created.length === 3, `expected 3 classes named ${name}, found ${created.length}`);
    await page.getByRole('cell', { name: new RegExp(name) }).first().waitFor();

    // A member books the first occurrence; the admin cancels it on Bookings.
    const booked = await bookAs(stack, ACCOUNTS.standard, created[0]!.id);
    expect(booked.status === 'booked', `setup booking: ${JSON.stringify(booked)}`);
    await adminNav(page, 'Bookings');
    await page.getByRole('heading', { name: 'Bookings Management' }).waitFor();
    await page.getByPlaceholder('Search by member name, email, or class...').fill(name);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: new RegExp(`^Cancel booking of .+ for ${name}$`) }).click();
    await toast(page, 'Booking cancelled successfully');
    const left = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${created[0]!.id}&select=id`);
    expect(left.length === 0, 'the cancelled booking is still in the database');

    // Analytics shows the database's own figures.
    await adminNav(page, 'Analytics');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    const stats = await rest<Record<string, number>>(stack, 'POST', '/rest/v1/rpc/admin_stats', {}, await authHeaders(stack, ACCOUNTS.admin));
    const cards: [string, number][] = [
      ['Total Members', stats.total_members!],
      ['Total Classes', stats.total_classes!],
      ['Total Bookings', stats.total_bookings!],
      ['Upcoming Classes', stats.upcoming_classes!],
    ];
    for (const [label, value] of cards) {
      const shown = (await page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]').textContent())?.trim();
      expect(shown === String(value), `${label}: the screen shows ${shown}, admin_stats says ${value}`);
    }

    // Regenerate the timetable: every class is replaced by the template.
    await adminNav(page, 'Generate');
    await page.getByRole('heading', { name: 'Generate Recurring Classes' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Generate Classes' }).click();
    await toast(page, 'Classes generated successfully!');
    const gone = await rest<unknown[]>(stack, 'GET', `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id`);
    expect(gone.length === 0, 'classes made before regeneration are still there');
    const template = await rest<{ name: string }[]>(stack, 'GET', `/rest/v1/classes?select=name&limit=1000`);
    expect(template.some((c) => c.name === 'Breakfast Club') && template.some((c) => c.name === 'Kids Club'), 'the regenerated timetable lacks Breakfast Club or Kids Club');
  },
};

export const adminJourneys: Journey[] = [adminPortal];
