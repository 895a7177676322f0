import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, rpc } from '@/testing/supabase-mocks';

// The Contact Us modal of /membership: validated with the request module's zod schema, sent to
// submit_contact_message (whose rules are tested in supabase/tests/email-delivery.test.ts), at the
// project's own address: its per-address limit must see the sender (decision 0060), so the mocks
// answer it there only and a call through the site's /rest/v1 would be an unhandled request.

async function openContactUs() {
  const user = userEvent.setup();
  renderApp('/membership');
  await screen.findByRole('heading', { level: 1, name: 'Membership' });
  await user.click(within(screen.getByRole('article', { name: 'Student / Hackney Worker' })).getByRole('button', { name: 'Contact Us' }));
  const dialog = screen.getByRole('dialog', { name: 'Contact Us' });
  await within(dialog).findByLabelText('Name'); // the form loads when the modal opens
  return { user, dialog };
}

async function fill(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText('Name'), 'Sam Lee');
  await user.type(within(dialog).getByLabelText('Email'), ' sam@example.com ');
  await user.type(within(dialog).getByLabelText('Message'), 'I work in Hackney.');
}

describe('Contact Us', () => {
  it('requires name, email and message (phone optional) and sends nothing until they are valid', async () => {
    const calls: unknown[] = [];
    server.use(rpc('submit_contact_message', ({ args }) => (calls.push(args), { status: 'received' }), { direct: true }));
    const { user, dialog } = await openContactUs();
    expect(dialog).toHaveAttribute('aria-modal', 'true');

    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Name is required');
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(within(dialog).getByLabelText('Message')).toHaveAccessibleDescription('Message is required');
    expect(within(dialog).getByLabelText('Phone (optional)')).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();

    await user.type(within(dialog).getByLabelText('Email'), 'sam@');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address');
    expect(calls).toEqual([]);
  });

  it('stores the message with its topic and says it reached the studio', async () => {
    const calls: unknown[] = [];
    server.use(rpc('submit_contact_message', ({ args }) => (calls.push(args), { status: 'received' }), { direct: true }));
    const { user, dialog } = await openContactUs();
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));

    expect(await within(dialog).findByRole('status')).toHaveTextContent('Thanks! Your message has reached the studio.');
    expect(within(dialog).getByRole('status')).toHaveTextContent("We'll reply to sam@example.com, usually within a day.");
    expect(calls).toEqual([
      { p_name: 'Sam Lee', p_email: 'sam@example.com', p_message: 'I work in Hackney.', p_topic: 'Student / Hackney Worker' },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('passes the hidden honeypot on, so the database can ignore a bot', async () => {
    const calls: Array<Record<string, unknown>> = [];
    server.use(rpc('submit_contact_message', ({ args }) => (calls.push(args), { status: 'received' }), { direct: true }));
    const { user, dialog } = await openContactUs();
    const honeypot = within(dialog).getByLabelText('Website');
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(within(dialog).queryByRole('textbox', { name: 'Website' })).not.toBeInTheDocument(); // not in the accessibility tree
    await fill(user, dialog);
    await user.type(honeypot, 'http://spam.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    await within(dialog).findByRole('status');
    expect(calls[0]).toMatchObject({ p_website: 'http://spam.example' });
  });

  it("shows the database's refusal (too many messages) and keeps what was typed", async () => {
    const message = 'You have sent us several messages in the last hour. Please wait a little before sending another.';
    server.use(
      rpc('submit_contact_message', () => postgrestError({ code: 'P0001', message, hint: 'contact_rate_limited' }), { direct: true }),
    );
    const { user, dialog } = await openContactUs();
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(within(dialog).getByLabelText('Message')).toHaveValue('I work in Hackney.');
  });

  it('says how else to reach the studio when sending fails', async () => {
    server.use(rpc('submit_contact_message', () => HttpResponse.error(), { direct: true }));
    const { user, dialog } = await openContactUs();
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Your message could not be sent. Please try again, or email us at hello@finerfitness.example.',
    );
  });
});
