import { expect, test } from '../fixtures';
import { ACCOUNTS, authHeaders, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import type { StackApi } from '../support/local-stack';
import { escapeRegExp, unique } from '../support/names';
import { bookAs, createClass, rest, type ClassRow } from '../support/rest';

/**
 * A fresh full class for one run (the journeys share one stack across widths): capacity 1, a
 * pay-as-you-go price of 10 (so payg members would pay per class), held by A (standard) through
 * book_class.
 */
async function fullClass(stack: StackApi, label: string): Promise<{ cls: ClassRow; bookingId: string }> {
  const cls = await createClass(stack, unique(label), 2, 1, 10);
  const booked = await bookAs(stack, ACCOUNTS.standard, cls.id);
  expect(booked.status === 'booked' && booked.booking_id, `A's booking: ${JSON.stringify(booked)}`).toBeTruthy();
  return { cls, bookingId: booked.booking_id! };
}

/**
 * The waitlist (decision 0005), end to end: B (premium) joins a full class's waitlist at position 1, A
 * (standard) cancels, the database promotes B in the same transaction, B's open schedule turns
 * the place into a booking (realtime), B's My Bookings shows the class booked and the promotion
 * email reaches B through the outbox and the stack's inbox.
 */
test('member joins a full class waitlist and is booked and emailed when a spot frees', async ({ page, stack }) => {
  const { cls, bookingId } = await fullClass(stack, 'Waitlist Spin');

  await signInAs(page, stack, ACCOUNTS.premium);
  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  const card = page.getByRole('article', { name: cls.name });
  await expect(card.getByText('Fully Booked').first()).toBeVisible();
  await card.getByRole('button', { name: 'Join Waitlist' }).click();
  await expect(card.getByText('On waitlist: #1 of 1')).toBeVisible();
  await expect(card.getByRole('button', { name: `Leave Waitlist: ${cls.name}` })).toBeVisible();
  // "Fully Booked" stays said in words next to the place.
  await expect(card.getByText('Fully Booked').first(), 'Fully Booked is shown with the waitlist place').toBeVisible();
  expect(formatViolations(await runAxe(page)), 'axe on the card with a waitlist place').toBe('');

  // A cancels through the same RPC the app calls.
  const cancel = await fetch(`${stack.url}/rest/v1/rpc/cancel_booking`, {
    method: 'POST',
    headers: await authHeaders(stack, ACCOUNTS.standard),
    body: JSON.stringify({ p_booking_id: bookingId }),
  });
  expect(cancel.ok, `A's cancellation answered ${cancel.status} ${await cancel.text()}`).toBe(true);

  // B's open page follows: the place becomes a booking without a reload.
  await expect(page.getByText(`A spot opened: you're booked on ${cls.name}.`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Booked', exact: true })).toBeVisible();
  await expect(card.getByText(/On waitlist/), 'no waitlist place after the promotion').toHaveCount(0);

  await page.goto('/mybookings');
  await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible();
  // Booked, not waiting: an upcoming booking offers Cancel, and no Leave Waitlist is left for it.
  await expect(page.getByRole('button', { name: new RegExp(`^Cancel ${escapeRegExp(cls.name)} on `) })).toBeVisible();
  await expect(
    page.getByRole('button', { name: new RegExp(`^Leave Waitlist: ${escapeRegExp(cls.name)}`) }),
    'My Bookings no longer lists B on the waitlist',
  ).toHaveCount(0);
  const [row] = await rest<{ spots_left: number }[]>(stack, 'GET', `/rest/v1/classes?id=eq.${cls.id}&select=spots_left`);
  expect(row?.spots_left, 'spots_left after the promotion').toBe(0);

  await expect
    .poll(
      async () =>
        (await stack.inbox.list()).some(
          (m) => m.to === ACCOUNTS.premium && m.subject.startsWith(`A spot opened: you are booked on ${cls.name}`),
        ),
      {
        message: `the promotion email to ${ACCOUNTS.premium} reaches the inbox`,
        timeout: 10_000,
      },
    )
    .toBe(true);
});

/**
 * A pay-as-you-go member who pays per class is told why they cannot wait, in the server's words,
 * before pressing anything: the schedule's facts say join_waitlist would refuse, so it is not offered.
 */
test('pay-as-you-go member is told the waitlist needs a plan and nothing changes', async ({ page, stack }) => {
  const { cls } = await fullClass(stack, 'Waitlist Refusal');
  await signInAs(page, stack, ACCOUNTS.payg);
  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
  const card = page.getByRole('article', { name: cls.name });
  await expect(card.getByText('Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.')).toBeVisible();
  await expect(
    card.getByRole('button', { name: 'Fully Booked' }),
    'a full class offers a pay-as-you-go member nothing to press',
  ).toBeDisabled();
  await expect(
    card.getByRole('button', { name: 'Join Waitlist' }),
    'the waitlist is not offered to a member the server refuses',
  ).toHaveCount(0);
  await expect(card.getByText(/On waitlist/), 'a refused join shows no place').toHaveCount(0);
  const rows = await rest<unknown[]>(stack, 'GET', `/rest/v1/class_waitlist?class_id=eq.${cls.id}&select=id`);
  expect(rows, 'the refused join left no waitlist row').toEqual([]);
});
