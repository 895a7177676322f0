import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { REST_URL, restGet, rpc } from '@/testing/supabase-mocks';

// Members Management (decision 0080): admins set the attendance policy (off until a rule is
// filled in) and waive a late cancellation or no-show with a reason.

const POLICY = { valid_from: '2026-01-01T00:00:00+00:00', late_cancel_fee: 5, no_show_fee: null, strike_limit: null, block_days: null };
const INCIDENT = {
  id: 'i1',
  member_id: 'm1',
  member_name: 'Priya Premium',
  member_email: 'm1@studio.test',
  kind: 'no_show',
  class_name: 'Spin',
  class_start_time: '2030-02-10T18:00:00+00:00',
  occurred_at: '2030-02-10T18:00:00+00:00',
  fee: 7.5,
  fee_state: 'charged',
  waived_at: null,
  waive_reason: null,
};

function setup(incidents: () => unknown[] = () => [INCIDENT]) {
  const { handlers } = signInAsAdmin(() => []);
  server.use(
    http.get(`${REST_URL}/members`, ({ request }) => {
      const url = new URL(request.url);
      if (!url.searchParams.has('order')) return undefined;
      return pagedResponse(url, []);
    }),
    ...handlers,
    http.head(`${REST_URL}/members`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    restGet('attendance_policies', () => [POLICY]),
    rpc('attendance_incidents_of', incidents),
  );
  renderApp('/admin/members');
}

describe('Members Management: attendance policy', () => {
  it('shows the policy in force and saves a new one, refusing strikes without the days blocked', async () => {
    setup();
    const saved: unknown[] = [];
    server.use(
      rpc('admin_set_attendance_policy', ({ args }) => {
        saved.push(args);
        return {};
      }),
    );
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Attendance policy' }));
    expect(await form.findByDisplayValue('5.00')).toHaveAccessibleName(/Late cancellation fee/);
    await user.type(form.getByLabelText(/No-show fee/), '7.5');
    await user.type(form.getByLabelText(/Strikes within 30 days/), '3');
    await user.click(form.getByRole('button', { name: 'Save attendance policy' }));
    expect(await form.findByText('Set both the strikes and the days booking is blocked, or neither')).toBeInTheDocument();
    expect(saved).toEqual([]);
    await user.type(form.getByLabelText(/Days booking is blocked/), '7');
    await user.click(form.getByRole('button', { name: 'Save attendance policy' }));
    expect(await screen.findByText('Attendance policy saved')).toBeInTheDocument();
    expect(saved).toEqual([{ p_late_cancel_fee: 5, p_no_show_fee: 7.5, p_strike_limit: 3, p_block_days: 7 }]);
  });

  it('turns the policy off when every field is emptied', async () => {
    setup(() => []);
    const saved: unknown[] = [];
    server.use(
      rpc('admin_set_attendance_policy', ({ args }) => {
        saved.push(args);
        return {};
      }),
    );
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Attendance policy' }));
    await user.clear(await form.findByDisplayValue('5.00'));
    await user.click(form.getByRole('button', { name: 'Save attendance policy' }));
    expect(await screen.findByText('Attendance policy saved')).toBeInTheDocument();
    expect(saved).toEqual([{ p_late_cancel_fee: null, p_no_show_fee: null, p_strike_limit: null, p_block_days: null }]);
    expect(await screen.findByText('None recorded.')).toBeInTheDocument();
  });

  it('waives a charged no-show fee with a reason; the database’s refusal is shown as worded', async () => {
    let waived = false;
    setup(() => [waived ? { ...INCIDENT, fee_state: 'refund_owed', waive_reason: 'Doctor’s note' } : INCIDENT]);
    const calls: unknown[] = [];
    let refuse = true;
    server.use(
      rpc('admin_waive_attendance', ({ args }) => {
        calls.push(args);
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ code: 'P0001', message: 'This has already been waived.', hint: 'already_waived' }, { status: 400 });
        }
        waived = true;
        return {};
      }),
    );
    const user = userEvent.setup();
    const table = within(await screen.findByRole('table'));
    expect(table.getByRole('row', { name: /Priya Premium No-show Spin/ })).toHaveTextContent('£7.50Charged');
    await user.click(table.getByRole('button', { name: 'Waive: Priya Premium, Spin' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Waive for Priya Premium' }));
    await user.click(dialog.getByRole('button', { name: 'Waive' }));
    expect(await dialog.findByText('Give a reason (at least 3 characters)')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.type(dialog.getByLabelText('Reason'), 'Doctor’s note');
    await user.click(dialog.getByRole('button', { name: 'Waive' }));
    expect(await screen.findByText('This has already been waived.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Waive' }));
    expect(await screen.findByText('Waived: the fee is owed back under Refunds owed')).toBeInTheDocument();
    expect(await screen.findByText('Waived: refund owed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Waive: Priya Premium, Spin' })).not.toBeInTheDocument();
    expect(calls).toEqual([
      { p_incident_id: 'i1', p_reason: 'Doctor’s note' },
      { p_incident_id: 'i1', p_reason: 'Doctor’s note' },
    ]);
  });
});
