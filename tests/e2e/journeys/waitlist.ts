import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { expect } from '../support/expect';
import type { Journey } from '../support/harness';
import type { LocalStack } from '../support/local-stack';
import { openRoute } from '../support/page-helpers';
import { bookAs, createClass, rest, type ClassRow } from '../support/rest';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A fresh full class for one run (the journeys share one stack across widths): capacity 1, a
 * pay-as-you-go price of 10 (so payg members would pay per class), held by A (standard) through
 * book_class.
 */
async function fullClass(stack: LocalStack, label: string, width: number): Promise<{ cls: ClassRow; bookingId: string }> {
  const cls = await createClass(stack, `${label} ${width}-${Date.now().toString(36)}`, 2, 1, 10);
  const booked = await bookAs(stack, ACCOUNTS.standard, cls.id);
  expect(booked.status === 'booked' && booked.booking_id, `A's booking: ${JSON.stringify(booked)}`);
  return { cls, bookingId: booked.booking_id };
}

/**
 * Issue 9's waitlist, end to end: B (premium) joins a full class's waitlist at position 1, A
 * (standard) cancels, the database promotes B in the same transaction, B's open schedule turns
 * the place into a booking (realtime), B's My Bookings shows the class booked and the promotion
 * email reaches B through the outbox and the stack's inbox.
 */
const waitlistPromotion: Journey = {
  name: 'member joins a full class waitlist and is booked and emailed when a spot frees',
  async run({ page, stack, width }) {
    const { cls, bookingId } = await fullClass(stack, 'Waitlist Spin', width);

    await signInAs(page, stack, ACCOUNTS.premium);
    await openRoute(page, '/my-schedule');
    await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
    const card = page.getByRole('article', { name: cls.name });
    await card.getByText('Fully Booked').first().waitFor();
    await card.getByRole('button', { name: 'Join Waitlist' }).click();
    await card.getByText('On waitlist: #1 of 1').waitFor();
    await card.getByRole('button', { name: `Leave Waitlist: ${cls.name}` }).waitFor();
    // "Fully Booked" stays said in words next to the place.
    expect(await card.getByText('Fully Booked').first().isVisible(), 'Fully Booked is not shown with the waitlist place');
    const violations = await runAxe(page);
    expect(violations.length === 0, `axe on the card with a waitlist place: ${formatViolations(violations)}`);

    // A cancels through the same RPC the app calls.
    const cancel = await fetch(`${stack.url}/rest/v1/rpc/cancel_booking`, {
      method: 'POST',
      headers: await authHeaders(stack, ACCOUNTS.standard),
      body: JSON.stringify({ p_booking_id: bookingId }),
    });
    expect(cancel.ok, `A's cancellation answered ${cancel.status} ${await cancel.text()}`);

    // B's open page follows: the place becomes a booking without a reload.
    await page.getByText(`A spot opened: you're booked on ${cls.name}.`).waitFor();
    await card.getByRole('button', { name: 'Booked', exact: true }).waitFor();
    expect((await card.getByText(/On waitlist/).count()) === 0, 'the card still shows a waitlist place after the promotion');

    await openRoute(page, '/mybookings');
    await page.getByRole('heading', { name: 'My Bookings', level: 1 }).waitFor();
    // Booked, not waiting: an upcoming booking offers Cancel, and no Leave Waitlist is left for it.
    await page.getByRole('button', { name: new RegExp(`^Cancel ${escapeRegExp(cls.name)} on `) }).waitFor();
    expect((await page.getByRole('button', { name: new RegExp(`^Leave Waitlist: ${escapeRegExp(cls.name)}`) }).count()) === 0, 'My Bookings still lists B on the waitlist');
    const [row] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
    expect(row?.spots_left === 0, `spots_left after the promotion: ${row?.spots_left}`);

    const deadline = Date.now() + 10_000;
    let email: { subject: string } | undefined;
    while (!email && Date.now() < deadline) {
      email = (await stack.inbox.list()).find((m) => m.to === ACCOUNTS.premium && m.subject.startsWith(`A spot opened: you are booked on ${cls.name}`));
      if (!email) await new Promise((r) => setTimeout(r, 200));
    }
    expect(email, `no promotion email to ${ACCOUNTS.premium} in the inbox`);
  },
};

/**
 * A pay-as-you-go member who pays per class is told why they cannot wait, in the server's words,
 * before pressing anything: the schedule's facts say join_waitlist would refuse, so it is not offered.
 */
const waitlistRefusal: Journey = {
  name: 'pay-as-you-go member is told the waitlist needs a plan and nothing changes',
  async run(ctx) {
    const { page, stack, width } = ctx;
    const { cls } = await fullClass(stack, 'Waitlist Refusal', width);
    await signInAs(page, stack, ACCOUNTS.payg);
    await openRoute(page, '/my-schedule');
    await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
    const card = page.getByRole('article', { name: cls.name });
    await card.getByText('Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.').waitFor();
    expect(await card.getByRole('button', { name: 'Fully Booked' }).isDisabled(), 'a full class offers a pay-as-you-go member something to press');
    expect((await card.getByRole('button', { name: 'Join Waitlist' }).count()) === 0, 'the waitlist is offered to a member the server refuses');
    expect((await card.getByText(/On waitlist/).count()) === 0, 'a refused join shows a place');
    const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/class_waitlist?class_id=eq.${cls.id}&select=id`);
    expect(rows.length === 0, `the refused join left ${rows.length} waitlist rows`);
  },
};

export const waitlistJourneys: Journey[] = [waitlistPromotion, waitlistRefusal];
