import { act, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, restGet, rpc } from '@/testing/supabase-mocks';

// The announcements panel on /admin/messages (decision 0090): write, preview by channel, send now
// or schedule, cancel. Who is in a segment, consent and the throttle are the database's
// (supabase/tests/announcements.test.ts).

const SENT = {
  id: 'a-1',
  type: 'marketing_announcement',
  subject: 'Spring offers',
  body: 'Two for one.',
  segment: 'lapsed',
  plan_slug: null,
  class_id: null,
  lapsed_days: 60,
  send_at: '2030-07-01T09:00:00+00:00',
  created_by: 'admin',
  created_at: '2030-07-01T09:00:00+00:00',
  sent_at: '2030-07-01T09:00:00+00:00',
  recipients: 3,
  emails: 3,
  pushes: 1,
  texts: 0,
  cancelled_at: null,
};
const SCHEDULED = {
  ...SENT,
  id: 'a-2',
  subject: 'Hall closed',
  type: 'announcement',
  segment: 'active',
  sent_at: null,
  recipients: null,
  send_at: '2030-08-01T08:00:00+00:00',
};

function setup() {
  const { handlers } = signInAsAdmin();
  const previews: unknown[] = [];
  const created: unknown[] = [];
  const cancelled: unknown[] = [];
  let list: Record<string, unknown>[] = [SCHEDULED, SENT];
  server.use(
    ...handlers,
    restGet('contact_messages', () => []),
    rpc('undelivered_emails', () => []),
    restGet('announcements', () => list),
    rpc('preview_announcement', ({ args }) => {
      previews.push(args);
      return { recipients: 3, emails: 3, pushes: 1, texts: 0, unreachable: 2 };
    }),
    rpc('create_announcement', ({ args }) => {
      created.push(args);
      const row = { ...SENT, id: 'a-3', subject: args.p_subject as string, sent_at: '2030-07-02T09:00:00+00:00' };
      list = [row, ...list];
      return row;
    }),
    rpc('cancel_announcement', ({ args }) => {
      cancelled.push(args);
      list = list.map((a) => (a.id === args.p_id ? { ...a, cancelled_at: '2030-07-02T09:00:00+00:00' } : a));
      return list.find((a) => a.id === args.p_id) ?? null;
    }),
  );
  return { previews, created, cancelled };
}

async function panel() {
  return within((await screen.findByRole('heading', { name: 'Announcements' }, { timeout: 15_000 })).closest('div')!);
}

describe('Announcements on Admin Messages', { timeout: 30_000 }, () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('previews how many a segment reaches by channel, and sends only after the preview of that segment', async () => {
    const { previews, created } = setup();
    const user = userEvent.setup();
    renderApp('/admin/messages');
    const p = await panel();
    await user.click(p.getByRole('radio', { name: 'News and offers (only members who said yes)' }));
    await user.type(p.getByRole('textbox', { name: 'Subject' }), 'Spring offers');
    await user.type(p.getByRole('textbox', { name: 'Message' }), 'Two for one.');
    await user.selectOptions(p.getByRole('combobox', { name: 'Who it is for' }), 'Lapsed within a number of days');
    expect(p.getByRole('spinbutton', { name: 'Lapsed within (days)' })).toHaveValue(60);
    const send = p.getByRole('button', { name: 'Send announcement' });
    expect(send).toBeDisabled();

    await user.click(p.getByRole('button', { name: 'Preview recipients' }));
    expect(await p.findByText('Will reach 3 members: 3 by email, 1 by push, 0 by text.')).toBeInTheDocument();
    expect(p.getByText(/2 members in this group will not get it/)).toBeInTheDocument();
    expect(previews).toEqual([{ p_type: 'marketing_announcement', p_segment: 'lapsed', p_lapsed_days: 60 }]);

    // Another segment needs its own preview.
    await user.clear(p.getByRole('spinbutton', { name: 'Lapsed within (days)' }));
    await user.type(p.getByRole('spinbutton', { name: 'Lapsed within (days)' }), '30');
    expect(p.getByRole('button', { name: 'Send announcement' })).toBeDisabled();
    await user.click(p.getByRole('button', { name: 'Preview recipients' }));
    await user.click(await p.findByRole('button', { name: 'Send announcement' }));
    expect(await screen.findByText('Sent to 3 members: 3 by email, 1 by push, 0 by text')).toBeInTheDocument();
    expect(created).toEqual([
      { p_type: 'marketing_announcement', p_segment: 'lapsed', p_lapsed_days: 30, p_subject: 'Spring offers', p_body: 'Two for one.' },
    ]);
  });

  it('refuses empty words on the form, shows what the database refuses, and cancels a scheduled one', async () => {
    const { previews, cancelled } = setup();
    const user = userEvent.setup();
    renderApp('/admin/messages');
    const p = await panel();
    await user.click(p.getByRole('button', { name: 'Preview recipients' }));
    expect(await p.findByText('Write a subject')).toBeInTheDocument();
    expect(p.getByText('Write a message')).toBeInTheDocument();
    expect(previews).toEqual([]);

    server.use(rpc('preview_announcement', () => postgrestError({ code: '42501', message: 'Access denied', hint: 'not_admin' }, 403)));
    await user.type(p.getByRole('textbox', { name: 'Subject' }), 'Hall closed');
    await user.type(p.getByRole('textbox', { name: 'Message' }), 'Meet in the park.');
    await user.click(p.getByRole('button', { name: 'Preview recipients' }));
    expect(await screen.findByText('Access denied')).toBeInTheDocument();

    const scheduled = (await p.findByText('Hall closed', { selector: 'span' })).closest('li')!;
    expect(scheduled).toHaveTextContent('All active members · Scheduled for Thu 1 Aug, 9:00 AM');
    await user.click(within(scheduled).getByRole('button', { name: 'Cancel Hall closed' }));
    expect(await screen.findByText('Announcement cancelled')).toBeInTheDocument();
    expect(cancelled).toEqual([{ p_id: 'a-2' }]);
    expect(await within(scheduled).findByText(/Cancelled/)).toBeInTheDocument();
  });
});
