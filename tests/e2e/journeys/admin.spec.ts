import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, PASSWORD, authHeaders, createConfirmedMember, passwordSession } from '../support/accounts';
import { tabTo } from '../support/keyboard';
import { escapeRegExp, unique } from '../support/names';
import { waitForEmail } from '../support/inbox';
import { bookAs, memberByEmail, rest } from '../support/rest';

// Runs in the "… admin" projects, after every other journey (playwright.config.ts): regenerating
// the timetable deletes every class.

const DAY_MS = 24 * 3600_000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Follows a sidebar link; on a phone the sidebar sits behind its menu button. */
async function adminNav(page: Page, label: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: label, exact: true }).click();
}

async function expectToast(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible({ timeout: 20_000 });
}

/** How the classes list names an occurrence: "D Mon YYYY" (British order) and "H:MM AM" in London time. */
function occurrence(iso: string): string {
  const at = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/London', ...options }).format(new Date(iso));
  return `${at({ day: 'numeric' })} ${at({ month: 'short' })} ${at({ year: 'numeric' })} at ${at({ hour: 'numeric', minute: '2-digit' })}`;
}

/**
 * The admin portal end to end (spec "Admin screens"): sign in, add a weekly repeating class, edit
 * and delete an occurrence, mark a roster and cancel a member's booking with the keyboard, delete
 * a member, read analytics against the database's figures, regenerate the timetable.
 */
test('admin adds, edits and deletes classes, marks a roster and cancels a booking by keyboard, deletes a member, reads analytics, regenerates', async ({
  page,
  stack,
}) => {
  // The class form's Trainer is a choice from the trainers' records (decision 0020): these two exist.
  for (const trainer of ['Coach Sam', 'Coach Robin']) {
    await rest(
      stack,
      'POST',
      '/rest/v1/trainers?on_conflict=name',
      { name: trainer },
      {
        apikey: stack.serviceRoleKey,
        authorization: `Bearer ${stack.serviceRoleKey}`,
        'content-type': 'application/json',
        prefer: 'resolution=ignore-duplicates',
      },
    );
  }
  await test.step('sign in on the admin portal', async () => {
    await page.goto('/admin/login');
    await expect(page.getByRole('heading', { name: 'Admin Portal' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill(ACCOUNTS.admin);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectToast(page, 'Welcome, Admin!');
    await expect(page.getByRole('heading', { name: 'Classes Management' })).toBeVisible();
  });

  await test.step('the closures below the timetable load when the admin jumps to them', async () => {
    await expect(page.getByRole('form', { name: 'Add a closure' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Studio closures' }).click();
    await expect(page.getByRole('form', { name: 'Add a closure' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  const name = unique('Kettlebells');
  const created = await test.step('add a class repeating weekly for three weeks: three classes', async () => {
    // Tomorrow: the list shows the next 50 classes, and other journeys add theirs from two days ahead.
    const first = new Date(Date.now() + DAY_MS);
    const until = new Date(first.getTime() + 14 * DAY_MS);
    await page.getByRole('button', { name: 'Add Class' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Class' });
    await dialog.getByLabel('Class name').fill(name);
    await dialog.getByLabel('Description').fill('Full-body kettlebell conditioning.');
    await dialog.getByLabel('Date', { exact: true }).fill(isoDate(first));
    await dialog.getByLabel('Time', { exact: true }).fill('18:30');
    await dialog.getByLabel('Trainer').selectOption('Coach Sam');
    await dialog.getByLabel('Capacity').fill('12');
    await dialog.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Weekly' });
    await dialog.getByLabel('Repeat until').fill(isoDate(until));
    await dialog.getByRole('button', { name: 'Create Class' }).click();
    await expectToast(page, '3 classes created successfully!');
    const rows = await rest<{ id: string; start_time: string }[]>(
      stack,
      'GET',
      `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id,start_time&order=start_time`,
    );
    expect(rows, `three classes named ${name} in the database`).toHaveLength(3);
    await expect(page.getByRole('cell', { name: new RegExp(escapeRegExp(name)) }).first()).toBeVisible();
    return rows;
  });

  await test.step('move the first occurrence an hour later and the booked member is emailed; delete it and they are told why', async () => {
    await bookAs(stack, ACCOUNTS.premium, created[0]!.id);
    const firstAt = occurrence(created[0]!.start_time);
    await page.getByRole('button', { name: `Edit ${name} on ${firstAt}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Class' });
    await edit.getByLabel('Trainer').selectOption('Coach Robin');
    await edit.getByLabel('Time', { exact: true }).fill('19:30');
    await edit.getByRole('button', { name: 'Update Class' }).click();
    await expectToast(page, 'Class updated successfully!');
    const movedTo = new Date(new Date(created[0]!.start_time).getTime() + 3600_000).toISOString();
    const [edited] = await rest<{ trainer: string; start_time: string }[]>(
      stack,
      'GET',
      `/rest/v1/classes?id=eq.${created[0]!.id}&select=trainer,start_time`,
    );
    expect({ ...edited, start_time: new Date(edited!.start_time).toISOString() }, 'the edited class in the database').toEqual({
      trainer: 'Coach Robin',
      start_time: movedTo,
    });
    const moved = await waitForEmail(stack, ACCOUNTS.premium, `Class moved: ${name} is now `);
    expect(moved.text, 'the old and the new time').toMatch(/Was: .+, 6:30 PM\nNow: .+, 7:30 PM \(London time\)/);

    // The list shows the next 50 classes: the first occurrence is on it, later ones may not be.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete ${name} on ${occurrence(movedTo)}` }).click();
    await expectToast(page, 'Class deleted successfully');
    const remaining = await rest<{ id: string }[]>(
      stack,
      'GET',
      `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id&order=start_time`,
    );
    expect(remaining, 'the two later occurrences remain').toEqual([{ id: created[1]!.id }, { id: created[2]!.id }]);
    const cancelled = await waitForEmail(stack, ACCOUNTS.premium, `Booking cancelled: ${name}, `);
    expect(cancelled.text).toContain(`Your booking for ${name} with Coach Robin has been cancelled: the studio cancelled the class.`);
  });

  await test.step('mark a member attended on the roster of a class starting in half an hour, by keyboard', async () => {
    const [soon] = await rest<{ id: string; name: string }[]>(stack, 'POST', '/rest/v1/classes?select=id,name', {
      name: unique('Aaa Roster'),
      description: 'Starts within the hour, so its roster can be marked',
      duration: 45,
      start_time: new Date(Date.now() + 30 * 60_000).toISOString(),
      trainer: 'Coach E2E',
      type: 'Group',
      capacity: 6,
    });
    await bookAs(stack, ACCOUNTS.premium, soon!.id);
    await page.reload();
    await page.getByRole('button', { name: new RegExp(`^Roster for ${escapeRegExp(soon!.name)} `) }).click();
    const roster = page.getByRole('dialog', { name: `Roster: ${soon!.name}` });
    // Marked with the keyboard alone: focus starts inside the dialog.
    await tabTo(page, roster.getByRole('button', { name: /^Attended: / }));
    await page.keyboard.press('Enter');
    await expect(roster.getByText('1 booked · 1 attended · 0 no-show · 0 not marked')).toBeVisible();
    const marks = await rest<{ attendance: string | null }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${soon!.id}&select=attendance`);
    expect(marks, 'attendance in the database').toEqual([{ attendance: 'attended' }]);
    await page.keyboard.press('Escape');
  });

  await test.step("cancel a member's booking on Bookings with the keyboard alone", async () => {
    const booked = await bookAs(stack, ACCOUNTS.standard, created[1]!.id);
    expect(booked.status, `setup booking: ${JSON.stringify(booked)}`).toBe('booked');
    await adminNav(page, 'Bookings');
    await expect(page.getByRole('heading', { name: 'Bookings Management' })).toBeVisible();
    const search = page.getByPlaceholder('Search by member name, email, or class...');
    await search.fill(name);
    page.once('dialog', (d) => void d.accept());
    // Tab from the search box to the row's Cancel, then Enter.
    const cancel = page.getByRole('button', { name: new RegExp(`^Cancel booking of .+ for ${escapeRegExp(name)}$`) });
    await expect(cancel).toBeVisible();
    await search.focus();
    await tabTo(page, cancel);
    await page.keyboard.press('Enter');
    await expectToast(page, 'Booking cancelled successfully');
    const left = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${created[1]!.id}&select=id`);
    expect(left, 'the cancelled booking is gone from the database').toEqual([]);
  });

  await test.step('delete a member made for this journey on Members Management', async () => {
    const leaver = `${unique('leaver')}@example.test`;
    const fullName = `Lee Leaver ${unique('x')}`;
    await createConfirmedMember(stack, leaver, 'leaver-pass-1', { full_name: fullName });
    await adminNav(page, 'Members');
    await expect(page.getByRole('heading', { name: 'Members Management' })).toBeVisible();
    await page.getByPlaceholder('Search by name or email...').fill(leaver);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete ${fullName}` }).click();
    await expectToast(page, 'Member deleted successfully');
    expect(await memberByEmail(stack, leaver), 'the deleted member is gone from the database').toBeUndefined();
    // Their login went with them, and the free trial is once per email, even after deletion.
    await expect(passwordSession(stack, leaver, 'leaver-pass-1'), 'the deleted member signs in').rejects.toThrow(
      /sign-in of .* failed: 400/,
    );
    await createConfirmedMember(stack, leaver, 'leaver-pass-2', { full_name: fullName, signup_source: 'free-trial' });
    expect(await memberByEmail(stack, leaver), 'the same email signing up again').toMatchObject({
      membership_tier: 'payg',
      has_used_trial: true,
    });
  });

  await test.step("analytics shows the database's own figures", async () => {
    await adminNav(page, 'Analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    const stats = await rest<Record<string, number>>(
      stack,
      'POST',
      '/rest/v1/rpc/admin_stats',
      {},
      await authHeaders(stack, ACCOUNTS.admin),
    );
    const cards: [string, number | undefined][] = [
      ['Total Members', stats.total_members],
      ['Total Classes', stats.total_classes],
      ['Total Bookings', stats.total_bookings],
      ['Upcoming Classes', stats.upcoming_classes],
    ];
    for (const [label, value] of cards) {
      const figure = page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]');
      await expect(figure, `${label} as admin_stats says`).toHaveText(String(value));
    }
    await expect(page.getByRole('heading', { name: 'Fill and Attendance by Week' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Weekly fill and attendance' }).getByRole('row'), 'a header and 8 weeks').toHaveCount(9);
  });

  await test.step("regenerate the timetable: only the template's own classes are replaced; classes added by hand and the past stay", async () => {
    const now = new Date().toISOString();
    const pastBefore = await rest<{ id: string }[]>(
      stack,
      'GET',
      `/rest/v1/bookings?select=id,classes!inner(start_time)&classes.start_time=lt.${now}`,
    );
    expect(pastBefore.length, 'the demo data has past bookings').toBeGreaterThan(0);
    await adminNav(page, 'Generate');
    await expect(page.getByRole('heading', { name: 'Generate Recurring Classes' })).toBeVisible();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Generate Classes' }).click();
    await expectToast(page, 'Classes generated successfully!');
    // Generating replaces only the classes its template made (decision 0037): the ones added by hand stay.
    const kept = await rest<unknown[]>(stack, 'GET', `/rest/v1/classes?name=eq.${encodeURIComponent(name)}&select=id`);
    expect(kept.length, 'classes added by hand stay through a regeneration').toBeGreaterThan(0);
    const names = (await rest<{ name: string }[]>(stack, 'GET', `/rest/v1/classes?select=name&limit=1000`)).map((c) => c.name);
    expect(names, 'the regenerated timetable').toEqual(expect.arrayContaining(['Breakfast Club', 'Kids Club']));
    const pastAfter = await rest<{ id: string }[]>(
      stack,
      'GET',
      `/rest/v1/bookings?select=id,classes!inner(start_time)&classes.start_time=lt.${now}`,
    );
    expect(pastAfter.map((b) => b.id).sort(), 'past bookings survive a regeneration').toEqual(pastBefore.map((b) => b.id).sort());
  });
});
