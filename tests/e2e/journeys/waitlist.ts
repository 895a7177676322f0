import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import { openRoute } from '../support/page-helpers';
import { bookAs, createClass, rest } from '../support/rest';

/**
 * Issue 9's waitlist, end to end: B (premium) joins a full class's waitlist at position 1, A
 * (standard) cancels, the database promotes B in the same transaction, B's My Bookings shows the
 * class and the promotion email reaches B through the outbox and the stack's inbox.
 */
const waitlistPromotion: Journey = {
  name: 'member joins a full class waitlist and is booked and emailed when a spot frees',
  async run({ page, stack, width }) {
    const cls = await createClass(stack, `Waitlist Spin ${width}-${Date.now().toString(36)}`, 2, 1);
    const booked = await bookAs(stack, ACCOUNTS.standard, cls.id);
    expect(booked.status === 'booked' && booked.booking_id, `A's booking: ${JSON.stringify(booked)}`);

    await signInAs(page, stack, ACCOUNTS.premium);
    await openRoute(page, '/my-schedule');
    await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
    const card = page.getByRole('article', { name: cls.name });
    await card.getByText('Fully Booked').first().waitFor();
    await card.getByRole('button', { name: 'Join Waitlist' }).click();
    await card.getByText('On waitlist: #1 of 1').waitFor();

    // A cancels through the same RPC the app calls.
    const cancel = await fetch(`${stack.url}/rest/v1/rpc/cancel_booking`, {
      method: 'POST',
      headers: await authHeaders(stack, ACCOUNTS.standard),
      body: JSON.stringify({ p_booking_id: booked.booking_id }),
    });
    expect(cancel.ok, `A's cancellation answered ${cancel.status} ${await cancel.text()}`);

    await openRoute(page, '/mybookings');
    await page.getByRole('heading', { name: 'My Bookings', level: 1 }).waitFor();
    await page.getByText(cls.name).first().waitFor();
    const [spot] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
    expect(spot?.spots_left === 0, `spots_left after the promotion: ${spot?.spots_left}`);

    const deadline = Date.now() + 10_000;
    let email: { subject: string } | undefined;
    while (!email && Date.now() < deadline) {
      email = (await stack.inbox.list()).find((m) => m.to === ACCOUNTS.premium && m.subject.startsWith(`A spot opened: you are booked on ${cls.name}`));
      if (!email) await new Promise((r) => setTimeout(r, 200));
    }
    expect(email, `no promotion email to ${ACCOUNTS.premium} in the inbox`);
  },
};

export const waitlistJourneys: Journey[] = [waitlistPromotion];
