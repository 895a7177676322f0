import { STUDIO } from '../../../src/config/studio';
import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { waitForEmail } from '../support/inbox';
import { unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';
import { createClass, memberByEmail, rest } from '../support/rest';

// Email journeys (decision 0008): email reaches people by the production path (the outbox drained by the
// nodemailer sender into the local stack's SMTP server), and Contact Us reaches the studio.

/** The studio's address (studio.config.json): Contact Us emails go there, and emails come from it. */
const STUDIO_EMAIL = STUDIO.email;
const PASSWORD = 'email-pass-123';

test('a member books a class and the confirmation arrives by SMTP with its HTML part', async ({ page, stack, baseURL }) => {
  const email = `${unique('confirm')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Elle Email' });
  const member = await memberByEmail(stack, email);
  // A premium member of the journey's own: books on the plan, with no trial or allowance in the way.
  await rest(stack, 'PATCH', `/rest/v1/members?id=eq.${member!.id}`, { membership_tier: 'premium', has_used_trial: true });
  const cls = await createClass(stack, `Mail Spin ${unique('m')}`, 3);

  await signInAs(page, stack, email, { password: PASSWORD });
  const card = await findClassCard(page, cls.name);
  await card.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByText('Class booked successfully!', { exact: true }).first()).toBeVisible();

  const mail = await waitForEmail(stack, email, `Booking confirmed: ${cls.name}, `);
  // What a mail app receives: a MIME message with both parts, from the studio.
  expect(mail.from, 'sent from MAIL_FROM').toBe(STUDIO_EMAIL);
  expect(mail.headers?.['content-type'], 'an HTML and a text part').toMatch(/^multipart\/alternative;/);
  expect(mail.headers?.['message-id'], 'a Message-ID set by nodemailer').toMatch(/^<.+@.+>$/);
  expect(mail.html, 'the HTML part names the class').toContain(cls.name);
  expect(mail.text, 'the text part is the database text').toContain('Hi Elle,');
  expect(mail.text).toContain(`You are booked on ${cls.name} with Coach E2E.`);
  expect(mail.links, 'the button leads to My Bookings on the site').toContain(`${baseURL}/mybookings`);

  // The dev inbox shows the HTML part as the member sees it, with a switch to the text part.
  await page.goto(`${stack.url}/inbox`);
  const entry = page.getByRole('article').filter({ hasText: mail.subject });
  await expect(entry).toHaveCount(1);
  const html = entry.frameLocator('iframe');
  await entry.locator('iframe').scrollIntoViewIfNeeded();
  await expect(html.getByText(`${cls.name} with Coach E2E`, { exact: true }), "the class card's class and trainer").toBeVisible();
  await expect(html.getByRole('link', { name: 'Manage or cancel your booking' }).first()).toHaveAttribute('href', `${baseURL}/mybookings`);
  await entry.getByText('Text', { exact: true }).click();
  await expect(entry.locator('pre'), 'the text part after the switch').toContainText(`You are booked on ${cls.name}`);
});

test('a visitor sends Contact Us from /membership and an admin sees it on Messages', async ({ page, stack }) => {
  const name = `Vic ${unique('v')}`;
  const email = `${unique('visitor')}@example.test`;
  const message = `Do you have showers and lockers? (${name})`;

  await page.goto('/membership');
  // The general Contact Us under the plans ("Not sure which plan fits?"), after the plan cards' own.
  await page.getByRole('button', { name: 'Contact Us' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('textbox', { name: /^Phone/ }).fill('07700 900123');
  await dialog.getByRole('textbox', { name: 'Message' }).fill(message);
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(dialog.getByText('Thanks! Your message has reached the studio.')).toBeVisible();
  await expect(dialog.getByText(`We'll reply to ${email}, usually within a day.`)).toBeVisible();

  // Emailed to the studio through the same sender, answerable with Reply.
  const mail = await waitForEmail(stack, STUDIO_EMAIL, `Contact Us: enquiry from ${name}`);
  expect(mail.replyTo, 'a reply goes to the visitor').toBe(email);
  expect(mail.text).toContain(message);
  expect(mail.html).toContain(name);

  await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  await page.goto('/admin/messages');
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
  const item = page.getByRole('article', { name });
  await expect(item.getByText(message)).toBeVisible();
  await expect(item.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
  await expect(item.getByText('07700 900123')).toBeVisible();

  await item.getByRole('button', { name: `Mark the message from ${name} as handled` }).click();
  await expect(page.getByText('Message marked as handled', { exact: true }).first()).toBeVisible();
  // Open messages only (the default view): a handled one leaves the list.
  await expect(page.getByRole('article', { name })).toHaveCount(0);
  const [row] = await rest<{ handled_at: string | null }[]>(
    stack,
    'GET',
    `/rest/v1/contact_messages?email=eq.${encodeURIComponent(email)}&select=handled_at`,
  );
  expect(row?.handled_at, 'handled in the database').not.toBeNull();
});

test("an admin previews an announcement to a class's attendees, sends it, and it arrives once", async ({ page, stack }) => {
  // The journey's own member and class: the demo members' allowances are left alone.
  const email = `${unique('announce')}@example.test`;
  await createConfirmedMember(stack, email, PASSWORD, { full_name: 'Ann Attendee' });
  const member = await memberByEmail(stack, email);
  const cls = await createClass(stack, `Hall Yoga ${unique('a')}`, 3);
  await rest(stack, 'POST', '/rest/v1/bookings', { member_id: member!.id, class_id: cls.id, type: 'paid' });

  await signInAs(page, stack, ACCOUNTS.admin);
  await page.goto('/admin/messages');
  const panel = page.getByRole('heading', { name: 'Announcements' }).locator('..');
  const subject = `The hall is closed (${cls.name})`;
  await panel.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await panel.getByRole('textbox', { name: 'Message' }).fill('We meet in the park instead.');
  await panel.getByRole('combobox', { name: 'Who it is for' }).selectOption({ label: "A class's attendees" });
  const classes = panel.getByRole('combobox', { name: 'Class' });
  const option = classes.locator('option', { hasText: cls.name });
  await classes.selectOption({ label: (await option.textContent())! });
  await panel.getByRole('button', { name: 'Preview recipients' }).click();
  await expect(panel.getByText('Will reach 1 member: 1 by email, 0 by push, 0 by text.')).toBeVisible();
  expect(formatViolations(await runAxe(page)), 'axe on Admin Messages with the announcements panel').toBe('');
  await panel.getByRole('button', { name: 'Send announcement' }).click();
  await expect(page.getByText('Sent to 1 member: 1 by email, 0 by push, 0 by text').first()).toBeVisible();

  const mail = await waitForEmail(stack, email, subject);
  expect(mail.text).toContain('Hi Ann,');
  expect(mail.text).toContain('We meet in the park instead.');
  // A service announcement is not marketing: no unsubscribe header.
  expect(mail.headers?.['list-unsubscribe']).toBeUndefined();
  expect((await stack.inbox.list()).filter((m) => m.to === email && m.subject === subject)).toHaveLength(1);
});
