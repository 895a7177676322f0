import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import { openRoute } from '../support/page-helpers';
import { bookAs, createClass, memberByEmail, rest } from '../support/rest';
import { ADMIN_ROUTES } from '../support/routes';
import { tabTo } from '../support/keyboard';

const unique = (label: string, width: number) => `${label}-${width}-${Date.now().toString(36)}`;

/** Trial sign-up on /free-trial, confirmed with the link from the stack's inbox (spec sections 2 and 4). */
const trialSignUp: Journey = {
  name: 'trial sign-up with the inbox confirmation link',
  async run({ page, stack, width }) {
    const email = `${unique('trial', width)}@example.test`;
    await openRoute(page, '/free-trial');
    await page.getByRole('heading', { name: 'Your First Class Is On Us' }).waitFor();
    await page.getByRole('textbox', { name: 'Full Name' }).fill('Tess Trial');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('trial-pass-123');
    await page.getByRole('button', { name: 'Start My Free Trial' }).click();
    await page.getByText('Check your email to confirm your account and start your free 7-day trial!').first().waitFor();

    const mail = (await stack.inbox.list()).find((m) => m.to === email);
    expect(mail, `no email to ${email} in the stack's inbox`);
    const link = (mail.links ?? []).find((l) => l.includes('/verify') || l.includes('token'));
    expect(link, `no confirmation link in "${mail.subject}": ${JSON.stringify(mail.links)}`);
    await page.goto(link);
    await page.waitForURL('**/my-schedule', { timeout: 20_000 });
    const member = await memberByEmail(stack, email);
    expect(member?.membership_tier === 'trial', `member after confirmation: ${JSON.stringify(member)}`);
    expect(member.trial_expires_at && new Date(member.trial_expires_at).getTime() > Date.now() + 6 * 24 * 3600_000, 'trial expiry is not ~7 days out');
    expect(await page.evaluate(() => localStorage.getItem('ffEmail')) === email, 'ffEmail not stored after the callback');
  },
};

/** A member cancels an upcoming booking on /mybookings; the spot comes back. */
const cancelBooking: Journey = {
  name: 'member cancels a booking on My Bookings',
  async run({ page, stack, width }) {
    const cls = await createClass(stack, `Cancel Me ${unique('c', width)}`, 3);
    const booked = await bookAs(stack, ACCOUNTS.standard, cls.id);
    expect(booked.status === 'booked', `setup booking: ${JSON.stringify(booked)}`);
    await signInAs(page, stack, ACCOUNTS.standard);
    await openRoute(page, '/mybookings');
    await page.getByRole('heading', { name: 'My Bookings', level: 1 }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: new RegExp(`^Cancel ${cls.name}`) }).click();
    await page.getByText('Booking cancelled', { exact: true }).first().waitFor();
    const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&select=id`);
    expect(rows.length === 0, 'the booking row is still there');
    const [after] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
    expect(after?.spots_left === cls.spots_left, `spots_left ${after?.spots_left}, expected ${cls.spots_left}`);
  },
};

/** A signed-in member who is not an admin is turned away from every admin URL (spec section 6). */
const memberRefusedAtAdmin: Journey = {
  name: 'a member is refused at every admin URL',
  async run({ page, stack }) {
    await signInAs(page, stack, ACCOUNTS.premium);
    for (const route of ADMIN_ROUTES) {
      await page.goto(route);
      await page.waitForURL((url) => !url.pathname.startsWith('/admin') || url.pathname === '/admin/login', { timeout: 15_000 });
      const adminHeading = await page.getByRole('heading', { name: /Management|Analytics|Generate Recurring Classes/ }).count();
      expect(adminHeading === 0, `${route}: an admin screen is showing to a member`);
    }
    // The database refuses too, whatever the screens do.
    const refused = await fetch(`${stack.url}/rest/v1/rpc/admin_stats`, {
      method: 'POST',
      headers: await authHeaders(stack, ACCOUNTS.premium),
      body: '{}',
    });
    expect(refused.status >= 400, `admin_stats answered ${refused.status} to a member`);
  },
};

/** A member finds a class on Book a Class and books it with the keyboard alone. */
const firstBooking: Journey = {
  name: 'member books a class with the keyboard alone',
  async run({ page, stack, width }) {
    const cls = await createClass(stack, `Spin ${unique('b', width)}`, 2);
    await signInAs(page, stack, ACCOUNTS.standard);
    await openRoute(page, '/my-schedule');
    await page.getByRole('heading', { name: 'Available Classes', level: 1 }).waitFor();
    const search = page.getByPlaceholder('Search classes or instructors...');
    await tabTo(page, search);
    await page.keyboard.type(cls.name);
    const card = page.getByRole('article', { name: cls.name });
    await card.waitFor();
    await tabTo(page, card.getByRole('button', { name: 'Book Now' }));
    await page.keyboard.press('Enter');
    await page.getByText('Class booked successfully!', { exact: true }).first().waitFor();
    const member = await memberByEmail(stack, ACCOUNTS.standard);
    const rows = await rest<{ type: string; payment_status: string }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&member_id=eq.${member!.id}&select=type,payment_status`);
    expect(rows.length === 1 && rows[0]!.type === 'paid' && rows[0]!.payment_status === 'completed', `booking row: ${JSON.stringify(rows)}`);
    await card.getByRole('button', { name: 'Booked' }).waitFor();
  },
};

/** A pay-as-you-go member whose trial is used pays on the local test checkout and is booked. */
const paygPayment: Journey = {
  name: 'pay-as-you-go member pays on the local test checkout',
  async run({ page, stack, width, origin }) {
    const cls = await createClass(stack, `Boxing ${unique('p', width)}`, 2, 10, 10);
    await signInAs(page, stack, ACCOUNTS.payg);
    await openRoute(page, '/my-schedule');
    await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
    await page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('button', { name: /^Pay / }).click({ timeout: 20_000 });
    await page.waitForURL((url) => url.href.startsWith(origin) && url.pathname === '/payment/return', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Payment received', level: 1 }).waitFor({ timeout: 20_000 });
    const member = await memberByEmail(stack, ACCOUNTS.payg);
    const rows = await rest<{ type: string; payment_status: string }[]>(stack, 'GET', `/rest/v1/bookings?class_id=eq.${cls.id}&member_id=eq.${member!.id}&select=type,payment_status`);
    expect(rows.length === 1 && rows[0]!.type === 'payg' && rows[0]!.payment_status === 'completed', `booking row after payment: ${JSON.stringify(rows)}`);
  },
};

export const memberJourneys: Journey[] = [trialSignUp, firstBooking, cancelBooking, paygPayment, memberRefusedAtAdmin];
