import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL, restGet, rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { RETENTION_ROWS } from '@/features/admin/lib/data-retention';

// Admin > Settings, how long personal data is kept (decision 0097): the data contract's table, the
// studio's two periods as they are now, and a form that saves them within the database's bounds.

function setup() {
  const saved: unknown[] = [];
  let periods = { guest_signature_days: 1095, contact_message_days: 365 };
  const { handlers } = signInAsAdmin();
  server.use(
    ...handlers,
    http.get(`${REST_URL}/meeting_points`, () => HttpResponse.json([])),
    http.get(`${REST_URL}/timetable_slot_meeting_points`, () => HttpResponse.json([])),
    rpc('admin_data_retention', () => periods),
    rpc('admin_cover_requests', () => []),
    rpc('admin_offer_report', () => []),
    restGet('referral_settings', () => [{ enabled: false, reward_kind: 'session_credit', renewal_amount: 10, credit_valid_days: 90 }]),
    rpc('admin_cover_auto_approve', () => false),
    rpc('admin_review_request_settings', () => ({ after_classes: null, once_in_months: 6, review_url: null })),
    http.get(`${REST_URL}/trainers`, () => HttpResponse.json([])),
    rpc('admin_set_data_retention', ({ args }) => {
      saved.push(args);
      const a = args as { p_guest_signature_days: number; p_contact_message_days: number };
      periods = { guest_signature_days: a.p_guest_signature_days, contact_message_days: a.p_contact_message_days };
      return periods;
    }),
  );
  renderApp('/admin/settings/personal-data');
  return { saved };
}

describe('Admin > Settings: how long personal data is kept', () => {
  it('lists every kind of personal data with its purpose, basis and period, and the studio’s periods now', async () => {
    setup();
    const list = await screen.findByRole('list', { name: 'Personal data kept' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(RETENTION_ROWS.length);
    const health = items.find((li) => li.textContent?.startsWith('Health answers (PAR-Q)'))!;
    expect(within(health).getByText('Explicit consent (special category)')).toBeInTheDocument();
    const guests = items.find((li) => li.textContent?.startsWith('Guest places and guest waiver signatures'))!;
    expect(await within(guests).findByText(': now 1095 days')).toBeInTheDocument();
    const contact = items.find((li) => li.textContent?.startsWith('Contact Us messages'))!;
    expect(within(contact).getByText(': now 365 days')).toBeInTheDocument();
    expect(screen.getByLabelText('Guest waiver signatures (days)')).toHaveValue(1095);
  });

  it('saves new periods, and refuses one outside 30 to 3650 days without asking the database', async () => {
    const { saved } = setup();
    const user = userEvent.setup();
    const contact = await screen.findByLabelText('Contact Us messages (days)');
    await user.clear(contact);
    await user.type(contact, '10');
    await user.click(screen.getByRole('button', { name: 'Save retention periods' }));
    expect(await screen.findByText('Contact Us messages: at least 30 days')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await user.clear(contact);
    await user.type(contact, '180');
    await user.click(screen.getByRole('button', { name: 'Save retention periods' }));
    expect(await screen.findByText('Retention periods saved')).toBeInTheDocument();
    expect(saved).toEqual([{ p_guest_signature_days: 1095, p_contact_message_days: 180 }]);
    const list = screen.getByRole('list', { name: 'Personal data kept' });
    expect(await within(list).findByText(': now 180 days')).toBeInTheDocument();
  });
});
