import type { Page } from 'playwright-core';
import { ACCOUNTS, PASSWORD, authHeaders, createConfirmedMember } from '../support/accounts';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import { openRoute, settle } from '../support/page-helpers';
import { tabTo } from '../support/keyboard';
import { bookAs, memberByEmail, rest } from '../support/rest';

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
  name: 'admin adds, edits and deletes classes, marks a roster and cancels a booking by keyboard, deletes a member, reads analytics, regenerates',
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

    // Edit the first occurrence's trainer, then delete that occurrence.
    const when = (iso: string) => ({
      date: new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/London', month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso)),
      time: new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/London', hour: 'numeric', minute: '2-digit' }).format(new Date(iso)),
    });
    const firstAt = when(created[0]!.start_time);
    await page.getByRole('button', { name: `Edit ${name} on ${firstAt.date} at ${firstAt.time}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Class' });
    await edit.getByLabel('Trainer').fill('Coach Robin');
    await edit.getByRole('button', { name: 'Update Class' }).click();
    await toast(page, 'Class updated successfully!');
    const [edited] = await rest<{ trainer: string; start_time: string }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${created[0]!.id}&select=trainer,start_time`);
    expect(edited?.trainer === 'Coach Robin' && edited.start_time === created[0]!.start_time, `edited class: ${JSON.stringify(edited)}`);
    // The list shows the next 50 classes: the first occurrence is on it, later ones may not be.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete ${name} on ${firstAt.date} at ${firstAt.time}` }).click();
    await toast(page, 'Class deleted successfully');
    const remaining = await rest<{ id: string }[]>(stack, 'GET', `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id`);
    expect(remaining.length === 2 && !remaining.some((r) => r.id === created[0]!.id), `after deleting one occurrence: ${JSON.stringify(remaining)}`);

    // The roster of a class starting in half an hour: mark the booked member attended.
    const [soon] = await rest<{ id: string; name: string }[]>(stack, 'POST', '/rest/v1/classes?select=id,name', {
      name: `Aaa Roster ${width} ${Date.now().toString(36)}`,
      description: 'Starts within the hour, so its roster can be marked',
      duration: 45,
      start_time: new Date(Date.now() + 30 * 60_000).toISOString(),
      trainer: 'Coach E2E',
      type: 'Group',
      capacity: 6,
    });
    if (!soon) throw new Error('the roster class was not created');
    await bookAs(stack, ACCOUNTS.premium, soon.id);
    await page.reload();
    await settle(page);
    await page.getByRole('button', { name: new RegExp(`^Roster for ${soon.name} `) }).click();
    const roster = page.getByRole('dialog', { name: `Roster: ${soon.name}` });
    const attended = roster.getByRole('button', { name: /^Attended: / });
    // Marked with the keyboard alone: focus starts inside the dialog.
    await tabTo(page, attended);
    await page.keyboard.press('Enter');
    await roster.getByText('1 booked · 1 attended · 0 no-show · 0 not marked').waitFor();
    const [marked] = await rest<{ attendance: string | null }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${soon.id}&select=attendance`);
    expect(marked?.attendance === 'attended', `attendance in the database: ${JSON.stringify(marked)}`);
    await page.keyboard.press('Escape');

    // A member books the second occurrence; the admin cancels it on Bookings.
    const booked = await bookAs(stack, ACCOUNTS.standard, created[1]!.id);
    expect(booked.status === 'booked', `setup booking: ${JSON.stringify(booked)}`);
    await adminNav(page, 'Bookings');
    await page.getByRole('heading', { name: 'Bookings Management' }).waitFor();
    await page.getByPlaceholder('Search by member name, email, or class...').fill(name);
    page.once('dialog', (d) => void d.accept());
    // With the keyboard alone (issue 8): Tab from the search box to the row's Cancel, then Enter.
    await page.getByRole('button', { name: new RegExp(`^Cancel booking of .+ for ${name}$`) }).waitFor();
    await page.getByPlaceholder('Search by member name, email, or class...').focus();
    await tabTo(page, page.getByRole('button', { name: new RegExp(`^Cancel booking of .+ for ${name}$`) }));
    await page.keyboard.press('Enter');
    await toast(page, 'Booking cancelled successfully');
    const left = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${created[1]!.id}&select=id`);
    expect(left.length === 0, 'the cancelled booking is still in the database');

    // Delete a member (one made for this journey) on Members Management.
    const leaver = `leaver-${width}-${Date.now().toString(36)}@example.test`;
    await createConfirmedMember(stack, leaver, 'leaver-pass-1', { full_name: `Lee Leaver ${width}` });
    await adminNav(page, 'Members');
    await page.getByRole('heading', { name: 'Members Management' }).waitFor();
    await page.getByPlaceholder('Search by name or email...').fill(leaver);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete Lee Leaver ${width}` }).click();
    await toast(page, 'Member deleted successfully');
    expect((await memberByEmail(stack, leaver)) === undefined, 'the deleted member is still in the database');

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
    await page.getByRole('heading', { name: 'Fill and Attendance by Week' }).waitFor();
    expect((await page.getByRole('table', { name: 'Weekly fill and attendance' }).getByRole('row').count()) === 9, 'the weekly table lacks 8 weeks');

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
