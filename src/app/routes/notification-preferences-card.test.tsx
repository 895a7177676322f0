import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

type Cell = {
  type: string;
  label: string;
  category: string;
  channel: string;
  enabled: boolean;
  changeable: boolean;
  blocked_by: string | null;
};

/** The database's grid for a member without a mobile number or marketing consent (my_notification_preferences). */
function grid(sms: 'none' | 'on' = 'none'): Cell[] {
  const cell = (type: string, label: string, category: string, channel: string, enabled: boolean, blocked_by: string | null): Cell => ({
    type,
    label,
    category,
    channel,
    enabled,
    changeable: blocked_by === null,
    blocked_by,
  });
  const text = (type: string, label: string, enabled: boolean) =>
    cell(type, label, 'service', 'sms', sms === 'on' && enabled, sms === 'on' ? null : 'no_mobile');
  return [
    cell('class_reminder', 'Class reminders', 'service', 'email', true, null),
    cell('class_reminder', 'Class reminders', 'service', 'push', true, null),
    text('class_reminder', 'Class reminders', true),
    cell('waitlist_promoted', 'A place from the waitlist', 'service', 'email', true, 'always'),
    cell('waitlist_promoted', 'A place from the waitlist', 'service', 'push', true, null),
    cell('marketing_announcement', 'News and offers', 'marketing', 'email', false, 'no_consent'),
    cell('marketing_announcement', 'News and offers', 'marketing', 'push', false, 'no_consent'),
    cell('marketing_announcement', 'News and offers', 'marketing', 'sms', false, 'no_consent'),
  ];
}

function setup(cells: Cell[], sms: { phone: string; stopped_at: string | null } | null = null) {
  const signed = signInAs({ membership_tier: 'standard' });
  const changes: unknown[] = [];
  let current = cells;
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    rpc('my_notification_preferences', () => current),
    ...preferencesHandlers({ sms }),
    rpc('set_notification_preference', ({ args }) => {
      changes.push(args);
      current = current.map((c) =>
        c.type === args.p_topic && c.channel === args.p_channel ? { ...c, enabled: args.p_enabled as boolean } : c,
      );
      return {
        member_id: signed.member.id,
        channel: args.p_channel,
        topic: args.p_topic,
        enabled: args.p_enabled,
        updated_at: '2026-12-27T10:00:00Z',
      };
    }),
    restGet('push_preferences', () => []),
  );
  return { ...signed, changes, setGrid: (next: Cell[]) => (current = next) };
}

async function card() {
  return within((await screen.findByRole('heading', { name: 'Notification preferences' }, { timeout: 15_000 })).closest('div')!);
}

describe('Notification preferences grid on Edit Profile', { timeout: 20_000 }, () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('is one table of kinds of message by email, push and text, each cell a labelled checkbox; a change is saved at once', async () => {
    const { changes } = setup(grid());
    renderApp('/edit-profile');
    const c = await card();
    const table = await c.findByRole('table', { name: 'Messages by email, push notification and text' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Message', 'Email', 'Push', 'Text']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Class reminders', 'A place from the waitlist', 'News and offers']);
    const reminderByEmail = c.getByRole('checkbox', { name: 'Class reminders by email' });
    expect(reminderByEmail).toBeChecked();
    // The record of a booking always goes by email; texts need a number; marketing needs a yes.
    expect(c.getByRole('checkbox', { name: 'A place from the waitlist by email' })).toBeDisabled();
    expect(c.getByRole('checkbox', { name: 'Class reminders by text' })).toBeDisabled();
    expect(c.getByRole('checkbox', { name: 'News and offers by push' })).toBeDisabled();
    expect(c.getByText('Add your mobile number below to get texts.')).toBeInTheDocument();
    expect(c.getByText('Say yes to news and offers under Email preferences first.')).toBeInTheDocument();
    // A kind not sent by a channel has no checkbox there.
    expect(c.queryByRole('checkbox', { name: 'A place from the waitlist by text' })).not.toBeInTheDocument();

    await userEvent.click(reminderByEmail);
    expect(await screen.findByText('Notification preferences saved')).toBeInTheDocument();
    expect(changes).toEqual([{ p_channel: 'email', p_topic: 'class_reminder', p_enabled: false }]);
    expect(c.getByRole('checkbox', { name: 'Class reminders by email' })).not.toBeChecked();
  });

  it('saves a mobile number in the database’s form, shows its refusal on the field, and then offers texts', async () => {
    const { setGrid } = setup(grid());
    const saved: unknown[] = [];
    server.use(
      rpc('set_sms_number', ({ args }) => {
        saved.push(args);
        if (args.p_phone === '020 7946 0000') {
          return postgrestError(
            {
              code: '22023',
              message: 'Enter a mobile number that can receive texts, like 07700 900123 or +44 7700 900123',
              hint: 'invalid_mobile',
            },
            400,
          );
        }
        setGrid(grid('on'));
        return { member_id: 'm', phone: '+447700900123', created_at: '2026-12-27T10:00:00Z', stopped_at: null };
      }),
    );
    renderApp('/edit-profile');
    const c = await card();
    const phone = await c.findByRole('textbox', { name: 'Mobile number for texts' });
    await userEvent.click(c.getByRole('button', { name: 'Save mobile number' }));
    expect(await c.findByText('Enter your mobile number')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await userEvent.type(phone, '020 7946 0000');
    await userEvent.click(c.getByRole('button', { name: 'Save mobile number' }));
    expect(await c.findByText(/Enter a mobile number that can receive texts/)).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(phone);
    await userEvent.type(phone, '07700 900123');
    await userEvent.click(c.getByRole('button', { name: 'Save mobile number' }));
    expect(await screen.findByText('Mobile number saved')).toBeInTheDocument();
    expect(phone).toHaveValue('+447700900123');
    expect(await c.findByRole('checkbox', { name: 'Class reminders by text' })).toBeEnabled();
    expect(saved.at(-1)).toEqual({ p_phone: '07700 900123' });
  });

  it('says so when the grid cannot be read, and when a change cannot be saved', async () => {
    setup(grid());
    server.use(rpc('set_notification_preference', () => postgrestError({ code: '500', message: 'boom' }, 500)));
    renderApp('/edit-profile');
    const c = await card();
    await userEvent.click(await c.findByRole('checkbox', { name: 'Class reminders by push' }));
    expect(await screen.findByText('Could not save your notification preferences. Please try again.')).toBeInTheDocument();
    expect(c.getByRole('checkbox', { name: 'Class reminders by push' })).toBeChecked();
  });
});
