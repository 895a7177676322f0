import '@/testing/match-media-polyfill';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { logoutHandler, memberHandler, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

// Profile > Your data (decision 0047): the download is a .json file and a readable page; closing
// says what is deleted and kept, asks once, and only then calls the function.

const downloads = vi.hoisted(() => [] as { text: string; fileName: string; mimeType: string }[]);
vi.mock('@/lib/download-file', () => ({
  downloadTextFile: (text: string, fileName: string, mimeType: string) => downloads.push({ text, fileName, mimeType }),
}));

const EXPORT = {
  exported_at: '2031-03-03T09:00:00+00:00',
  profile: { name: 'Sam <b>Member</b>', email: 'sam@example.test', marketing_opt_in: false },
  membership: null,
  bookings: [{ class_name: 'Morning Yoga', class_start_time: '2031-03-05T08:00:00+00:00', payment_status: 'completed' }],
  waitlist: [],
  payments: [],
  credits: [],
  documents_signed: [{ document: 'Waiver', version: 2 }],
  health_answers: { answers: [false, false], consent_given: true },
  preferences: { email: { reminders: true }, push: null, marketing_consents: [] },
  family: [],
  guest_places: [],
  referrals: { code: 'SAMCODE1', made: [{ status: 'rewarded' }], received: null, rewards: [{ kind: 'class_credit', amount: null }] },
  offer_uses: [{ offer: 'SPRING10', kind: 'promo_code', discount: 10 }],
  billing: { method: 'direct_debit', direct_debit_mandates: [{ mandate: 'MD123', status: 'active' }], direct_debit_collections: [] },
  attendance: [{ kind: 'no_show', fee: 5 }],
};

function setup() {
  const signed = signInAs({ name: 'Sam Member', membership_tier: 'payg' });
  const closes: unknown[] = [];
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/1' } })),
    ...preferencesHandlers(),
    restGet('push_preferences', () => []),
    rpc('my_data_export', () => EXPORT),
    logoutHandler,
    http.post('*/.netlify/functions/delete-member', async ({ request }) => {
      closes.push(await request.json());
      return HttpResponse.json({ memberId: signed.member.id, refundsOwed: 0 });
    }),
  );
  renderApp('/edit-profile');
  return { closes };
}

describe('Profile > Your data', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    downloads.length = 0;
  });

  it('downloads the data as a JSON file and shows it as a readable page, section by section', async () => {
    setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    const page = await screen.findByRole('region', { name: 'Your data' });
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.fileName).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(downloads[0]!.mimeType).toBe('application/json');
    expect(JSON.parse(downloads[0]!.text)).toEqual(EXPORT);

    // Readable: fields by name, values as text (HTML in a name is shown, not run), lists counted.
    await user.click(within(page).getByText('Profile'));
    expect(within(page).getByText('Sam <b>Member</b>')).toBeInTheDocument();
    expect(within(page).getByText('Marketing opt in').nextElementSibling).toHaveTextContent('No');
    const bookings = within(page).getByText('Bookings (1)');
    await user.click(bookings);
    expect(within(page).getByText('Class name').nextElementSibling).toHaveTextContent('Morning Yoga');
    expect(within(page).getByText('Payments (0)')).toBeInTheDocument();
    expect(within(page).getByText('Health answers')).toBeInTheDocument();

    // The money parts (decision 0047, in step with the file): referrals, offers, how they pay, fees.
    await user.click(within(page).getByText('Referrals'));
    expect(within(page).getByText('Code').nextElementSibling).toHaveTextContent('SAMCODE1');
    expect(within(page).getByText('Offers and promo codes used (1)')).toBeInTheDocument();
    await user.click(within(page).getByText('How you pay (card or Direct Debit)'));
    expect(within(page).getByText('Method').nextElementSibling).toHaveTextContent('direct_debit');
    expect(within(page).getByText('Late cancellations and no-shows (1)')).toBeInTheDocument();
  });

  it('says what closing deletes and keeps, and closes only once the member confirms', async () => {
    const { closes } = setup();
    const user = userEvent.setup();
    expect(await screen.findByText(/^Deleted now: your profile and photo, your login/)).toBeInTheDocument();
    expect(screen.getByText(/^Kept: your payments and refunds, for 6 years/)).toBeInTheDocument();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    expect(confirm).toHaveBeenCalledWith('Close your account for good? This cannot be undone.');
    expect(closes).toEqual([]);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    expect(await screen.findByText('Your account is closed')).toBeInTheDocument();
    expect(closes).toEqual([{ own: true }]);
    // Signed out and sent home.
    expect(await screen.findByRole('link', { name: /sign in/i }, { timeout: 10_000 })).toBeInTheDocument();
  });
});
