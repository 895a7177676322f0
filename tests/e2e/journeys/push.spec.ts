import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, createConfirmedMember, PASSWORD, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { runJobsAt } from '../support/jobs';
import { unique } from '../support/names';
import { appWorker, pushesTo, saveLocalDevice, shownNotifications, type DecryptedPush } from '../support/push';
import { bookAs, createClass, rest } from '../support/rest';

// Decision 0023: a waitlist promotion reaches a member's phone as a notification, and so
// does the reminder before an early class, at the time the member chose, when the jobs run.
//
// The member's device is the local push service's browser-less client, and the decrypted payload
// is delivered to the page's real service worker through DevTools (see support/push.ts for why).

test.describe('pushes on a member’s phone', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'a phone’s notifications: one width is enough');
  });

  test('with notifications allowed, a waitlist promotion shows a notification within seconds of another member cancelling', async ({
    page,
    context,
    stack,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    await context.grantPermissions(['notifications'], { origin });
    const cls = await createClass(stack, unique('Push Breakfast Club'), 2, 1, 10);
    const held = await bookAs(stack, ACCOUNTS.standard, cls.id);
    expect(held.booking_id, JSON.stringify(held)).toBeTruthy();

    await signInAs(page, stack, ACCOUNTS.premium);
    await page.goto('/edit-profile');
    // The worker runs on members' pages; the card offers this browser (permission granted, no subscription yet).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const card = page.getByRole('heading', { name: 'Notifications on your phone' }).locator('..');
    await expect(card.getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();
    // Which pushes come is the one preferences grid's (decision 0091): waitlist places by push are on by default.
    await expect(page.getByRole('checkbox', { name: 'A place from the waitlist by push' })).toBeChecked();
    expect(formatViolations(await runAxe(page)), 'axe on Edit Profile with the notifications card and the grid').toBe('');

    // The member's device: a subscription of the local push service, saved for them.
    const device = await saveLocalDevice(stack, ACCOUNTS.premium);
    const premium = await authHeaders(stack, ACCOUNTS.premium);
    await rest(stack, 'POST', '/rest/v1/rpc/join_waitlist', { p_class_id: cls.id }, premium);

    // Another member cancels: the database promotes the premium member and queues the push.
    const cancelledAt = Date.now();
    await rest(
      stack,
      'POST',
      '/rest/v1/rpc/cancel_booking',
      { p_booking_id: held.booking_id },
      await authHeaders(stack, ACCOUNTS.standard),
    );
    let push: DecryptedPush | undefined;
    await expect
      .poll(
        async () => {
          push = (await pushesTo(stack, device.id))[0];
          return push !== undefined;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const secondsToDevice = (Date.parse(push!.receivedAt) - cancelledAt) / 1000;
    test.info().annotations.push({ type: 'push delivered after', description: `${secondsToDevice.toFixed(2)} s` });
    expect(secondsToDevice).toBeLessThan(5);
    expect(JSON.parse(push!.payload)).toMatchObject({
      title: 'A spot opened: you are booked',
      path: '/mybookings',
      kind: 'waitlist_promoted',
      tag: `class:${cls.id}`,
    });

    // The same payload, delivered to the page's worker as the push service would: it is shown.
    const worker = await appWorker(page, origin);
    await worker.send(push!.payload);
    await expect
      .poll(() => shownNotifications(page), { timeout: 10_000 })
      .toEqual([
        {
          title: 'A spot opened: you are booked',
          body: expect.stringContaining(`${cls.name} with Coach E2E, `) as unknown,
          tag: `class:${cls.id}`,
          data: { path: '/mybookings', kind: 'waitlist_promoted' },
        },
      ]);
  });

  test('in a private window, Turn on says why it cannot work instead of “please try again”', async ({
    page,
    context,
    stack,
    baseURL,
    consoleErrors,
  }) => {
    // Playwright's browser contexts are Chromium's incognito profiles: notifications may be
    // allowed, but the browser refuses a push subscription, as it does in any private window.
    await context.grantPermissions(['notifications'], { origin: new URL(baseURL!).origin });
    const email = `${unique('private')}@example.test`;
    await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Pia Private' });
    await signInAs(page, stack, email);
    await page.goto('/edit-profile');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const card = page.getByRole('heading', { name: 'Notifications on your phone' }).locator('..');
    await card.getByRole('button', { name: 'Turn on notifications on this device' }).click();
    const why = 'Notifications can’t be turned on in a private window. Open the site in a normal browser window, then turn them on there.';
    await expect(card.getByText(why)).toBeVisible();
    await expect(page.getByText(/Please try again/)).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Turn on notifications on this device' })).toHaveCount(0);
    // Chromium says it in the console too, in its own words: the one error this step expects.
    expect(consoleErrors.take().filter((line) => !/does not support the Push API in incognito mode/.test(line))).toEqual([]);
  });

  test('the reminder before an early class arrives at the time the member chose when the jobs run, once', async ({
    page,
    context,
    stack,
    baseURL,
  }, testInfo) => {
    const origin = new URL(baseURL!).origin;
    await context.grantPermissions(['notifications'], { origin });
    const email = `${unique('reminded')}@example.test`;
    await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Rhea Reminded' });
    // An early class (before 9:00 AM London) three days ahead, booked by the member.
    const start = londonTime(3, 6, 30);
    const [cls] = await rest<{ id: string; name: string }[]>(stack, 'POST', '/rest/v1/classes?select=id,name', {
      name: unique('Reminder Breakfast Club'),
      description: 'Created by an e2e journey',
      duration: 45,
      start_time: start.toISOString(),
      trainer: 'Coach E2E',
      type: 'Group',
      capacity: 10,
      price_payg: null,
    });
    const booked = await bookAs(stack, email, cls!.id);
    expect(booked.booking_id, JSON.stringify(booked)).toBeTruthy();

    // The member chooses 2 hours before (the default is 1 hour) on Edit Profile.
    await signInAs(page, stack, email);
    await page.goto('/edit-profile');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const card = page.getByRole('heading', { name: 'Notifications on your phone' }).locator('..');
    const lead = card.getByRole('combobox', { name: 'Reminder before an early class' });
    await expect(lead).toHaveValue('60');
    await lead.selectOption({ label: '2 hours before' });
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    await page.reload();
    await expect(lead).toHaveValue('120', { timeout: 20_000 });

    // Their phone: a device of the local push service, saved for them.
    const device = await saveLocalDevice(stack, email);
    const payments = testInfo.outputPath('test-payments.json');
    const minutes = (n: number) => n * 60_000;

    // The reminder in the outbox, as the jobs leave it (service role).
    const outbox = () =>
      rest<{ next_attempt_at: string; sent_at: string | null }[]>(
        stack,
        'GET',
        `/rest/v1/push_outbox?booking_id=eq.${booked.booking_id}&kind=eq.class_reminder&select=next_attempt_at,sent_at`,
      );

    // Two and a half hours before the class, half an hour before the chosen time: the hourly job
    // queues the reminder for that time; nothing reaches the phone yet.
    const before = await runJobsAt(stack, baseURL!, new Date(start.getTime() - minutes(150)), payments);
    expect(before).toMatch(/push reminders: queued [1-9]/);
    const queued = await outbox();
    expect(queued.map((r) => [Date.parse(r.next_attempt_at), r.sent_at])).toEqual([[start.getTime() - minutes(120), null]]);
    expect(await pushesTo(stack, device.id)).toEqual([]);

    // Five minutes into the chosen window (with the default hour it would not be due yet): sent.
    const inside = new Date(start.getTime() - minutes(115));
    const ranAt = Date.now();
    const sent = await runJobsAt(stack, baseURL!, inside, payments);
    testInfo.annotations.push({ type: 'jobs run', description: `${((Date.now() - ranAt) / 1000).toFixed(1)} s` });
    expect(sent).toMatch(/pushes: sent [1-9]/);
    const delivered = await pushesTo(stack, device.id);
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0]!.payload)).toEqual({
      title: `Reminder: ${cls!.name} at 6:30 AM`,
      body: expect.stringMatching(/^With Coach E2E, .*6:30 AM\. Cannot make it\? Cancel from My Bookings\.$/) as unknown,
      path: '/mybookings',
      kind: 'class_reminder',
      tag: `class:${cls!.id}`,
    });

    // The same time again: nothing more (one reminder per booking and device, ever).
    await runJobsAt(stack, baseURL!, inside, payments);
    expect((await outbox()).map((r) => Date.parse(r.sent_at ?? ''))).toEqual([inside.getTime()]);
    expect(await pushesTo(stack, device.id)).toHaveLength(1);

    // Delivered to the phone's worker as the push service would: the notification is shown.
    const worker = await appWorker(page, origin);
    await worker.send(delivered[0]!.payload);
    await expect
      .poll(() => shownNotifications(page), { timeout: 10_000 })
      .toEqual([
        {
          title: `Reminder: ${cls!.name} at 6:30 AM`,
          body: expect.stringContaining('With Coach E2E, ') as unknown,
          tag: `class:${cls!.id}`,
          data: { path: '/mybookings', kind: 'class_reminder' },
        },
      ]);
  });
});

/** `hour:minute` London time on the day `daysAhead` days from now (whatever the clocks' offset). */
function londonTime(daysAhead: number, hour: number, minute: number): Date {
  const day = new Date(Date.now() + daysAhead * 24 * 3600_000);
  const asUtc = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute));
  const londonHour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', hourCycle: 'h23' }).format(asUtc),
  );
  return new Date(asUtc.getTime() - (londonHour - hour) * 3600_000);
}
