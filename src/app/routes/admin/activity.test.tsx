import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL } from '@/testing/supabase-mocks';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';

const downloads = vi.hoisted(() => [] as { text: string; fileName: string }[]);
vi.mock('@/lib/download-file', () => ({
  downloadTextFile: (text: string, fileName: string) => downloads.push({ text, fileName }),
}));

const event = (id: number, fields: Record<string, unknown>) => ({
  id,
  at: '2030-07-01T08:30:00+00:00',
  actor_member_id: 'a1',
  actor_name: 'Ada Admin',
  actor_role: 'admin',
  table_name: 'classes',
  row_id: `r${id}`,
  action: 'update',
  kind: 'class',
  member_id: null,
  class_id: 'c1',
  subject: 'Yoga, Monday 1 July 2030, 9:30 AM',
  before: { capacity: 8 },
  after: { capacity: 12 },
  ...fields,
});

const EVENTS = [
  event(2, {}),
  event(1, {
    table_name: 'credits',
    action: 'insert',
    kind: 'credit',
    class_id: null,
    member_id: 'm1',
    subject: '=HYPERLINK("http://evil.example")',
    before: null,
    after: { kind: 'guest_pass', reason: 'Goodwill' },
  }),
];

function setup() {
  const { handlers } = signInAsAdmin();
  const seen: URL[] = [];
  server.use(
    ...handlers,
    http.get(`${REST_URL}/audit_events`, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      const kind = url.searchParams.get('kind');
      return pagedResponse(url, kind ? EVENTS.filter((e) => `eq.${e.kind}` === kind) : EVENTS);
    }),
  );
  renderApp('/admin/activity');
  return seen;
}

describe('Admin > Activity', () => {
  it('lists each change with who, when, what and its before and after', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Activity' })).toBeInTheDocument();
    const rows = await screen.findAllByRole('row');
    const first = rows.find((r) => within(r).queryByText('capacity: 8 → 12'));
    expect(first).toBeDefined();
    expect(within(first!).getByText('2030-07-01 09:30:00')).toBeInTheDocument();
    expect(within(first!).getByText(/Changed · Classes/)).toBeInTheDocument();
    expect(screen.getByText('kind: guest_pass')).toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 2 changes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters on the server by who, kind, member or class and London dates', async () => {
    const seen = setup();
    const user = userEvent.setup();
    await screen.findByText('Showing 2 of 2 changes');
    await user.type(screen.getByLabelText('Who'), 'ada_');
    await user.selectOptions(screen.getByLabelText('Kind'), 'credit');
    await user.type(screen.getByLabelText('Member or class'), 'Sam');
    await user.type(screen.getByLabelText('From'), '2030-07-01');
    await user.type(screen.getByLabelText('To'), '2030-07-01');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('Showing 1 of 1 changes');
    const last = seen.at(-1)!;
    expect(last.searchParams.get('kind')).toBe('eq.credit');
    expect(last.searchParams.get('actor_name')).toBe('ilike.*ada\\_*');
    expect(last.searchParams.get('subject')).toBe('ilike.*Sam*');
    // 1 July in London is BST: midnight is 23:00 UTC the day before.
    expect(last.searchParams.getAll('at')).toEqual(['gte.2030-06-30T23:00:00.000Z', 'lt.2030-07-01T23:00:00.000Z']);
  });

  it('refuses a first day after the last day and keeps the list as it was', async () => {
    const seen = setup();
    const user = userEvent.setup();
    await screen.findByText('Showing 2 of 2 changes');
    const requests = seen.length;
    await user.type(screen.getByLabelText('From'), '2030-07-02');
    await user.type(screen.getByLabelText('To'), '2030-07-01');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('The first day must be on or before the last day')).toBeInTheDocument();
    expect(seen).toHaveLength(requests);
  });

  it('exports the filtered log as CSV with formula cells neutralised', async () => {
    downloads.length = 0;
    setup();
    const user = userEvent.setup();
    await screen.findByText('Showing 2 of 2 changes');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exported 2 activity')).toBeInTheDocument();
    const [file] = downloads;
    expect(file!.fileName).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = file!.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('When (London),Who,Role,Kind,Action,Member or class,Table,Row,Before,After');
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(lines[1]).toContain('"{""capacity"":8}"');
  });
});
