import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { rpc } from '@/testing/supabase-mocks';

// The members the studio should contact, and contacting them from the list.

const LAPSED = {
  member_id: 'm-1',
  name: 'Rita Returner',
  email: 'rita@example.test',
  reason: 'membership_lapsed',
  since: '2030-03-02T10:00:00Z',
  detail: 'Standard, ended after failed payments',
  last_contacted_at: null,
  last_contacted_by: null,
  last_note: null,
};
const QUIET = {
  member_id: 'm-2',
  name: 'Quinn Quiet',
  email: 'quinn@example.test',
  reason: 'attendance_dropped',
  since: '2030-02-05T10:00:00Z',
  detail: '1 booking in the last 4 weeks, 6 in the 8 before',
  last_contacted_at: '2030-03-01T12:00:00Z',
  last_contacted_by: 'Ada Admin',
  last_note: 'Called: knee injury',
};

describe('/admin/contacts', () => {
  it('lists each member with why, since when and the last contact', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('members_to_contact', () => [LAPSED, QUIET]),
    );
    renderApp('/admin/contacts');
    const list = within(await screen.findByRole('list', { name: 'Members to contact' }));
    const [rita, quinn] = list.getAllByRole('listitem');
    expect(rita).toHaveTextContent('Rita Returner');
    expect(rita).toHaveTextContent('Membership lapsed');
    expect(rita).toHaveTextContent('Standard, ended after failed payments · since 2 Mar 2030');
    expect(rita).toHaveTextContent('Not contacted yet');
    expect(quinn).toHaveTextContent('Contacted 1 Mar 2030 by Ada Admin: Called: knee injury');
  });

  it('emails a member with an editable first draft, through admin_email_member', async () => {
    const { handlers } = signInAsAdmin();
    const sent: unknown[] = [];
    server.use(
      ...handlers,
      rpc('members_to_contact', () => [LAPSED]),
      rpc('admin_email_member', ({ args }) => {
        sent.push(args);
        return { id: 'c-1' };
      }),
    );
    renderApp('/admin/contacts');
    await userEvent.click(await screen.findByRole('button', { name: 'Email Rita Returner' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Email Rita Returner' }));
    expect(dialog.getByLabelText('Subject')).toHaveValue('Your membership has ended');
    await userEvent.clear(dialog.getByLabelText('Subject'));
    await userEvent.click(dialog.getByRole('button', { name: 'Send email' }));
    expect(await dialog.findByText('Write a subject')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await userEvent.type(dialog.getByLabelText('Subject'), 'Come back soon');
    await userEvent.click(dialog.getByRole('button', { name: 'Send email' }));
    expect(await screen.findByText('Email to Rita Returner queued')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        p_member_id: 'm-1',
        p_reason: 'membership_lapsed',
        p_subject: 'Come back soon',
        p_message: expect.stringContaining('choose a plan again'),
      },
    ]);
  });

  it('notes a call, and says when nobody needs contacting', async () => {
    const { handlers } = signInAsAdmin();
    const notes: unknown[] = [];
    let rows = [QUIET];
    server.use(
      ...handlers,
      rpc('members_to_contact', () => rows),
      rpc('admin_record_contact', ({ args }) => {
        notes.push(args);
        rows = [];
        return { id: 'c-2' };
      }),
    );
    renderApp('/admin/contacts');
    await userEvent.click(await screen.findByRole('button', { name: 'Note a call with Quinn Quiet' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Note a call with Quinn Quiet' }));
    await userEvent.type(dialog.getByLabelText('What was said'), 'Back next week');
    await userEvent.click(dialog.getByRole('button', { name: 'Save note' }));
    expect(await screen.findByText('Contact noted')).toBeInTheDocument();
    expect(notes).toEqual([{ p_member_id: 'm-2', p_reason: 'attendance_dropped', p_note: 'Back next week' }]);
    expect(await screen.findByText('Nobody to contact')).toBeInTheDocument();
  });
});
