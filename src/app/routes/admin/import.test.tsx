import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import type { ImportRowOutcome } from '@/features/admin/lib/member-import/outcome';

// Admin > Import (decision 0065): the preview is the database's answer (admin_import_members with
// p_commit false); nothing is written until Import, and no email until Send invitations.

const CSV =
  '\uFEFFFull name,E-mail address,Mobile,Born,Plan,Price,Next payment\r\n' +
  '"Okafor, Amara",amara@example.test,07700 900101,14/02/1988,Standard,£70,05/01/2027\r\n' +
  '<b>Bold</b>,bad-email,,31/02/1990,,,\r\n';

function outcome(row: Partial<ImportRowOutcome> & Pick<ImportRowOutcome, 'line' | 'outcome'>): ImportRowOutcome {
  return { kind: 'member', name: null, email: null, actions: [], refusals: [], ...row };
}

function setup() {
  const calls: { p_rows: unknown; p_commit: boolean }[] = [];
  const invites: unknown[] = [];
  let waiting = [{ member_id: 'm1', email: 'amara@example.test', name: 'Okafor, Amara' }];
  const { handlers } = signInAsAdmin();
  server.use(
    ...handlers,
    rpc('admin_import_members', ({ args }) => {
      calls.push(args as (typeof calls)[number]);
      return [
        outcome({
          line: 2,
          name: 'Okafor, Amara',
          email: 'amara@example.test',
          outcome: 'created',
          actions: ['New member amara@example.test.', 'Standard at £70.00/month, next payment 05/01/2027 (no card charged now).'],
        }),
        outcome({
          line: 3,
          name: '<b>Bold</b>',
          email: 'bad-email',
          outcome: 'refused',
          refusals: ['Email "bad-email" is not an email address.', 'Date of birth "31/02/1990" is not a date.'],
        }),
      ];
    }),
    rpc('admin_members_to_invite', () => waiting),
    http.post('*/.netlify/functions/invite-members', () => {
      invites.push(true);
      waiting = [];
      return HttpResponse.json({ invited: 1, failed: [] });
    }),
  );
  renderApp('/admin/import');
  return { calls, invites };
}

beforeAll(async () => {
  await loadRouteModules({ pathname: '/admin/import' });
}, 60_000);
beforeEach(() => localStorage.clear());

describe('Admin > Import', () => {
  it('maps the columns, previews without writing, imports on confirm, then sends the invitations', async () => {
    const { calls, invites } = setup();
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File([CSV], 'members.csv', { type: 'text/csv' }));

    // Headers that read as our fields are matched; the others are mapped by hand.
    expect(await screen.findByLabelText('E-mail address')).toHaveValue('email');
    expect(screen.getByLabelText('Full name')).toHaveValue('name');
    expect(screen.getByLabelText('Mobile')).toHaveValue('phone');
    expect(screen.getByLabelText('Plan')).toHaveValue('plan');
    expect(screen.getByLabelText('Born')).toHaveValue('');
    await user.selectOptions(screen.getByLabelText('Born'), 'date_of_birth');
    await user.selectOptions(screen.getByLabelText('Price'), 'plan_price');
    await user.selectOptions(screen.getByLabelText('Next payment'), 'next_payment_date');
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const preview = await screen.findByRole('table', { name: 'Preview' });
    expect(screen.getByText('Nothing is written yet. 1 new, 0 updated, 0 unchanged, 1 refused.')).toBeInTheDocument();
    expect(within(preview).getByText('Date of birth "31/02/1990" is not a date.')).toBeInTheDocument();
    // A name with HTML is shown as text, never as markup.
    expect(within(preview).getByText('<b>Bold</b>')).toBeInTheDocument();
    expect(preview.querySelector('b')).toBeNull();
    expect(calls).toEqual([
      {
        p_commit: false,
        p_rows: [
          {
            line: 2,
            name: 'Okafor, Amara',
            email: 'amara@example.test',
            phone: '07700 900101',
            date_of_birth: '1988-02-14',
            plan: 'Standard',
            plan_price: '70',
            next_payment_date: '2027-01-05',
          },
          { line: 3, name: '<b>Bold</b>', email: 'bad-email', date_of_birth: '31/02/1990' },
        ],
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Import 1 row' }));
    expect(await screen.findByRole('table', { name: 'Import result' })).toBeInTheDocument();
    expect(calls.map((c) => c.p_commit)).toEqual([false, true]);
    expect(calls[1]!.p_rows).toEqual(calls[0]!.p_rows);
    expect(invites).toEqual([]);

    expect(await screen.findByText('1 imported member is waiting for an invitation.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('Nobody is waiting for an invitation.')).toBeInTheDocument();
    expect(invites).toHaveLength(1);
  });

  it('maps an emergency contact by our column names or a next-of-kin spelling, and sends its phone read as a phone', async () => {
    const { calls } = setup();
    const user = userEvent.setup();
    const csv = 'Name,Email,Emergency contact phone,Next of kin name\r\nJo Smith,jo@example.test,7700900456,Sam Smith\r\n';
    await user.upload(await screen.findByLabelText('CSV file'), new File([csv], 'members.csv', { type: 'text/csv' }));
    expect(await screen.findByLabelText('Emergency contact phone')).toHaveValue('emergency_contact_phone');
    expect(screen.getByLabelText('Next of kin name')).toHaveValue('emergency_contact_name');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByRole('table', { name: 'Preview' });
    expect(calls[0]!.p_rows).toEqual([
      { line: 2, name: 'Jo Smith', email: 'jo@example.test', emergency_contact_name: 'Sam Smith', emergency_contact_phone: '07700900456' },
    ]);
  });

  it('remembers the mapping for a file with the same columns', async () => {
    setup();
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File([CSV], 'members.csv', { type: 'text/csv' }));
    await user.selectOptions(await screen.findByLabelText('Born'), 'date_of_birth');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByRole('table', { name: 'Preview' });
    await user.upload(screen.getByLabelText('CSV file'), new File([CSV], 'again.csv', { type: 'text/csv' }));
    expect(await screen.findByText(/again\.csv: 2 rows/)).toBeInTheDocument();
    expect(screen.getByLabelText('Born')).toHaveValue('date_of_birth');
  });

  it('says why a file cannot be read, and writes nothing', async () => {
    const { calls } = setup();
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File(['Name,Email\n"Jo,jo@example.test\n'], 'broken.csv'));
    expect(await screen.findByRole('alert')).toHaveTextContent('a quoted field is never closed');
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
