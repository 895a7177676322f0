import { act, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, restGet, rpc } from '@/testing/supabase-mocks';

// /admin/messages: Contact Us messages (contact_messages, admins only by RLS) and undelivered
// emails (undelivered_emails / retry_email). The SQL rules are in supabase/tests/email-delivery.test.ts.

type Row = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  topic: string | null;
  created_at: string;
  handled_at: string | null;
};

const OPEN: Row = {
  id: 'm-1',
  name: 'Sam Lee',
  email: 'sam@example.com',
  phone: '07700 900456',
  message: 'I work in Hackney.\nIs the discount on Platinum too?',
  topic: 'Student / Hackney Worker',
  created_at: '2030-07-01T09:05:00+00:00',
  handled_at: null,
};
const HANDLED: Row = {
  ...OPEN,
  id: 'm-2',
  name: 'Ann Old',
  email: 'ann@example.com',
  phone: null,
  topic: null,
  message: 'Parking?',
  handled_at: '2030-07-02T10:00:00+00:00',
};
const FAILED = {
  id: 'e-1',
  kind: 'booking_confirmed',
  to_email: 'typo@exampel.com',
  subject: 'Booking confirmed: Yoga, Monday 1 July 2030, 6:00 AM',
  attempts: 6,
  last_error: '550: 5.1.1 Recipient address rejected',
  created_at: '2030-07-01T08:00:00+00:00',
  failed_at: '2030-07-01T08:31:00+00:00',
  channel: 'email',
};

function setup(options: { failed?: unknown[] } = {}) {
  const { handlers } = signInAsAdmin();
  const rows: Row[] = [OPEN, HANDLED];
  const filters: string[] = [];
  server.use(
    ...handlers,
    restGet('contact_messages', ({ url }) => {
      const open = url.searchParams.get('handled_at') === 'is.null';
      filters.push(open ? 'open' : 'all');
      return rows.filter((r) => !open || r.handled_at === null);
    }),
    rpc('undelivered_emails', () => options.failed ?? [FAILED]),
    // The announcements panel (announcements.test.tsx tests it).
    restGet('announcements', () => []),
  );
  return { rows, filters };
}

describe('Admin Messages', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('lists open Contact Us messages, and all of them on request', async () => {
    const { filters } = setup();
    const user = userEvent.setup();
    renderApp('/admin/messages');

    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    const message = await screen.findByRole('article', { name: 'Sam Lee' });
    expect(message).toHaveTextContent('About: Student / Hackney Worker');
    expect(message).toHaveTextContent('I work in Hackney.');
    expect(message).toHaveTextContent('07700 900456');
    expect(message).toHaveTextContent('1 Jul 2030, 10:05 AM'); // London summer time
    expect(within(message).getByRole('link', { name: 'sam@example.com' })).toHaveAttribute('href', 'mailto:sam@example.com');
    expect(screen.queryByRole('article', { name: 'Ann Old' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(await screen.findByRole('article', { name: 'Ann Old' })).toHaveTextContent('Handled 2 Jul 2030, 11:00 AM');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(filters).toEqual(['open', 'all']);
    expect(screen.getByRole('link', { name: 'Messages' })).toHaveAttribute('aria-current', 'page');
  });

  it('marks a message handled through mark_contact_message_handled and reads the list again', async () => {
    const { rows } = setup();
    const calls: unknown[] = [];
    server.use(
      rpc('mark_contact_message_handled', ({ args }) => {
        calls.push(args);
        rows[0] = { ...OPEN, handled_at: '2030-07-03T09:00:00+00:00' };
        return rows[0];
      }),
    );
    const user = userEvent.setup();
    renderApp('/admin/messages');
    await user.click(await screen.findByRole('button', { name: 'Mark the message from Sam Lee as handled' }));
    expect(await screen.findByText('Message marked as handled')).toBeInTheDocument();
    expect(calls).toEqual([{ p_id: 'm-1', p_handled: true }]);
    expect(await screen.findByText('No open messages')).toBeInTheDocument();
  });

  it('shows undelivered emails and pushes with the error and retries one', async () => {
    setup({
      failed: [
        FAILED,
        {
          ...FAILED,
          id: 'p-1',
          kind: 'waitlist_promoted',
          channel: 'push',
          to_email: 'Pixel 8',
          subject: 'A spot opened: you are booked',
          last_error: '500 push service down',
        },
      ],
    });
    const retried: unknown[] = [];
    server.use(rpc('retry_email', ({ args }) => (retried.push(args), { id: 'e-1', next_attempt_at: '2030-07-03T09:00:00+00:00' })));
    const user = userEvent.setup();
    renderApp('/admin/messages');
    const panel = within(await screen.findByRole('region', { name: 'Undelivered emails' }));
    expect(await panel.findByText('Booking confirmed: Yoga, Monday 1 July 2030, 6:00 AM')).toBeInTheDocument();
    expect(panel.getByText('550: 5.1.1 Recipient address rejected')).toBeInTheDocument();
    expect(panel.getByText('Email, 6 attempts')).toBeInTheDocument();
    // Every channel's failures are in the one list, each with its Retry.
    expect(panel.getByText('Push notification, 6 attempts')).toBeInTheDocument();
    expect(
      panel.getByRole('button', { name: 'Retry the push notification to Pixel 8: A spot opened: you are booked' }),
    ).toBeInTheDocument();
    await user.click(
      panel.getByRole('button', { name: 'Retry the email to typo@exampel.com: Booking confirmed: Yoga, Monday 1 July 2030, 6:00 AM' }),
    );
    expect(await screen.findByText('The email will be sent again within a minute')).toBeInTheDocument();
    expect(retried).toEqual([{ p_id: 'e-1' }]);
  });

  it('says when every email was delivered, and when the messages cannot be read', async () => {
    setup({ failed: [] });
    server.use(restGet('contact_messages', () => postgrestError({ code: '42501', message: 'permission denied' }, 403)));
    renderApp('/admin/messages');
    expect(await screen.findByText('Every email was delivered')).toBeInTheDocument();
    expect(await screen.findByText('Could not load the messages')).toBeInTheDocument();
  });
});
