import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL, restGet, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';

const downloads = vi.hoisted(() => [] as { text: string; fileName: string; mimeType: string }[]);
vi.mock('@/lib/download-file', () => ({
  downloadTextFile: (text: string, fileName: string, mimeType: string) => downloads.push({ text, fileName, mimeType }),
}));

// 1,203 bookings: an export needs two pages of 1,000 and one of 203.
const BOOKINGS = Array.from({ length: 1203 }, (_, i) => ({
  id: `b${i}`,
  booked_at: '2030-01-02T09:05:00+00:00',
  kind: 'member',
  person_name: i === 0 ? '=HYPERLINK("http://evil.example")' : `Member ${i}`,
  member_name: i === 0 ? '=HYPERLINK("http://evil.example")' : `Member ${i}`,
  member_email: `m${i}@studio.test`,
  class_name: 'Breakfast Club',
  class_start_time: '2030-07-01T05:00:00+00:00',
  class_trainer: 'Coach Alex',
}));

const waitRow = (id: string, seq: number, email: string, cls: { id: string; name: string; start_time: string }) => ({
  id,
  seq,
  joined_at: '2030-01-01T10:00:00+00:00',
  members: { name: null, email },
  classes: { ...cls, trainer: 'Coach Alex' },
});
const SPIN = { id: 'c-spin', name: 'Spin', start_time: '2030-01-09T18:00:00+00:00' };
const YOGA = { id: 'c-yoga', name: 'Yoga', start_time: '2030-01-08T07:00:00+00:00' };

describe('Bookings Management export', () => {
  it('downloads every booking the search matches as a spreadsheet-safe CSV, 1,000 rows a request', async () => {
    downloads.length = 0;
    const { handlers } = signInAsAdmin();
    const ranges: string[] = [];
    server.use(
      ...handlers,
      restGet('class_waitlist', () => []),
      restGet('refunds_owed', () => []),
      rpc('admin_bookings_total', () => BOOKINGS.length),
      http.get(`${REST_URL}/admin_bookings`, ({ request }) => {
        const url = new URL(request.url);
        ranges.push(`${url.searchParams.get('offset') ?? 0}+${url.searchParams.get('limit')}`);
        return pagedResponse(url, BOOKINGS);
      }),
    );
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await screen.findByText('Showing 50 of 1203 bookings');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exported 1203 bookings')).toBeInTheDocument();
    expect(ranges.slice(1)).toEqual(['0+1000', '1000+1000']);
    expect(downloads).toHaveLength(1);
    const [file] = downloads;
    expect(file!.fileName).toMatch(/^bookings-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file!.mimeType).toBe('text/csv; charset=utf-8');
    const lines = file!.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Person,Place,Member Name,Member Email,Class,Trainer,Class Date & Time (London),Booked At (London),Booking ID');
    // A formula in a name stays text; London summer time shows 06:00 for 05:00 UTC.
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""http://evil.example"")",Member,"'=HYPERLINK(""http://evil.example"")",m0@studio.test,Breakfast Club,Coach Alex,2030-07-01 06:00,2030-01-02 09:05,b0`,
    );
    expect(lines).toHaveLength(1203 + 2);
  });

  it('says the export failed and downloads nothing when a page fails', async () => {
    downloads.length = 0;
    const { handlers } = signInAsAdmin();
    let calls = 0;
    server.use(
      ...handlers,
      restGet('class_waitlist', () => []),
      restGet('refunds_owed', () => []),
      rpc('admin_bookings_total', () => BOOKINGS.length),
      http.get(`${REST_URL}/admin_bookings`, ({ request }) => {
        calls += 1;
        if (calls > 1) return HttpResponse.json({ message: 'boom' }, { status: 500 });
        return pagedResponse(new URL(request.url), BOOKINGS);
      }),
    );
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await screen.findByText('Showing 50 of 1203 bookings');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Export failed. Please try again.')).toBeInTheDocument();
    expect(downloads).toEqual([]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled());
  });
});

describe('Members Management export', () => {
  it('downloads the members the search matches, tiers as the table shows them', async () => {
    downloads.length = 0;
    const list = [
      {
        id: 'm1',
        name: 'Tara Trial',
        email: 'trial@studio.test',
        membership_tier: 'trial',
        created_at: '2026-03-05T10:00:00Z',
        bookings: [{ count: 1 }],
      },
      {
        id: 'm2',
        name: 'Priya Premium',
        email: 'premium@studio.test',
        membership_tier: 'premium',
        created_at: '2026-07-01T23:30:00Z',
        bookings: [{ count: 7 }],
      },
    ];
    const { handlers } = signInAsAdmin(() => list);
    server.use(
      ...handlers,
      http.head(`${REST_URL}/members`, () => new HttpResponse(null, { headers: { 'content-range': '*/2' } })),
    );
    const user = userEvent.setup();
    renderApp('/admin/members');
    await screen.findByText('Showing 2 of 2 members');
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'premium');
    await screen.findByText('Showing 1 of 1 members');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exported 1 member')).toBeInTheDocument();
    expect(downloads[0]!.fileName).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    // Joined in London: 23:30 UTC on 1 July is 2 July there.
    expect(downloads[0]!.text).toBe(
      '\uFEFFName,Email,Membership,Total Bookings,Joined (London),Member ID\r\nPriya Premium,premium@studio.test,Premium,7,2026-07-02,m2\r\n',
    );
  });
});

describe('Bookings Management waitlists', () => {
  it('lists who waits for each upcoming class in line order and removes one after confirmation', async () => {
    const { handlers } = signInAsAdmin();
    const deleted: string[] = [];
    const waiting = [
      waitRow('w3', 3, 'c@studio.test', SPIN),
      waitRow('w1', 1, 'a@studio.test', SPIN),
      waitRow('w2', 2, 'b@studio.test', YOGA),
    ];
    server.use(
      ...handlers,
      rpc('admin_bookings_total', () => 0),
      http.get(`${REST_URL}/admin_bookings`, ({ request }) => pagedResponse(new URL(request.url), [])),
      restGet('class_waitlist', () => waiting.filter((w) => !deleted.includes(`eq.${w.id}`))),
      restGet('refunds_owed', () => []),
      http.delete(`${REST_URL}/class_waitlist`, ({ request }) => {
        deleted.push(new URL(request.url).searchParams.get('id') ?? '');
        return new HttpResponse(null, { status: 204, headers: { 'content-range': '*/1' } });
      }),
    );
    const confirm = answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    const section = await screen.findByRole('region', { name: 'Waitlists' });
    const rows = await within(section).findAllByRole('row');
    // Header, then Yoga (sooner) and Spin's two in line order.
    expect(
      rows.slice(1).map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Yoga8 Jan 2030 · 7:00 AM', '#1 of 1', '—b@studio.test'],
      ['Spin9 Jan 2030 · 6:00 PM', '#1 of 2', '—a@studio.test'],
      ['Spin9 Jan 2030 · 6:00 PM', '#2 of 2', '—c@studio.test'],
    ]);
    await user.click(within(section).getByRole('button', { name: 'Remove a@studio.test from the waitlist for Spin' }));
    expect(confirm).toHaveBeenCalledWith('Remove a@studio.test from the waitlist for Spin?');
    expect(await screen.findByText('Removed from the waitlist')).toBeInTheDocument();
    expect(deleted).toEqual(['eq.w1']);
    await waitFor(() => expect(within(section).queryByText('a@studio.test')).not.toBeInTheDocument());
  });

  it('says when nobody is waiting', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_bookings_total', () => 0),
      http.get(`${REST_URL}/admin_bookings`, ({ request }) => pagedResponse(new URL(request.url), [])),
      restGet('class_waitlist', () => []),
      restGet('refunds_owed', () => []),
    );
    renderApp('/admin/bookings');
    expect(await screen.findByText('No one is waiting')).toBeInTheDocument();
  });
});
