import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { restGet, rpc } from '@/testing/supabase-mocks';

const waiver = {
  id: 'w1',
  kind: 'waiver',
  version: 1,
  title: 'Liability Waiver and Assumption of Risk',
  body: 'Exercise carries a risk of injury.',
  questions: null,
  summary: null,
  published_at: '2026-01-01T00:00:00Z',
  published_by: null,
};

const MEMBERS = [
  {
    member_id: 'm1',
    name: 'Priya Shah',
    email: 'premium@studio.test',
    terms_version: 1,
    waiver_version: 1,
    parq_version: 1,
    last_signed_at: '2026-01-02T10:00:00Z',
    all_current: true,
    health_flag: false,
  },
  {
    member_id: 'm2',
    name: 'Ava Turner',
    email: 'trial@studio.test',
    terms_version: null,
    waiver_version: null,
    parq_version: null,
    last_signed_at: null,
    all_current: false,
    health_flag: false,
  },
];

function setup() {
  const { handlers } = signInAsAdmin();
  const published: Record<string, unknown>[] = [];
  const filters: unknown[] = [];
  server.use(
    ...handlers,
    restGet('document_versions', () => [waiver]),
    rpc('admin_member_documents', ({ args }) => {
      filters.push(args.p_unsigned_only);
      return args.p_unsigned_only ? MEMBERS.filter((m) => !m.all_current) : MEMBERS;
    }),
    restGet('document_acceptances', () => [
      {
        id: 'a1',
        signed_name: 'Priya Shah',
        accepted_at: '2026-01-02T10:00:00Z',
        document_versions: { kind: 'waiver', version: 1, title: waiver.title },
      },
    ]),
    rpc('publish_document', ({ args }) => {
      published.push(args);
      return { ...waiver, id: 'w2', version: 2, body: String(args.p_body) };
    }),
  );
  return { published, filters, user: userEvent.setup() };
}

describe('/admin/documents', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('publishes a new waiver version after a warning that members sign again', async () => {
    const { published, user } = setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/admin/documents');
    expect(await screen.findByText(/Version 1, published 1 Jan 2026/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish a new version of the Liability Waiver' }));
    const text = screen.getByRole('textbox', { name: /^Text/ });
    expect(text).toHaveValue('Exercise carries a risk of injury.');
    await user.type(text, '\n\nOutdoor sessions: dress for the weather.');
    await user.type(screen.getByRole('textbox', { name: /What changed/ }), 'Outdoor sessions added');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(published).toHaveLength(1));
    expect(confirm).toHaveBeenCalledWith(
      'Publish a new Liability Waiver? Every member will be asked to sign it before their next booking.',
    );
    expect(published[0]).toMatchObject({ p_kind: 'waiver', p_summary: 'Outdoor sessions added', p_questions: null });
    expect(await screen.findByText('Liability Waiver version 2 published')).toBeInTheDocument();
  });

  it("publishes the children's health questionnaire with its questions; parents are told they answer it again", async () => {
    const { published, user } = setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/admin/documents');
    await screen.findByText(/Version 1, published 1 Jan 2026/);
    await user.click(screen.getByRole('button', { name: "Publish a new version of the Children's health questionnaire" }));
    await user.type(screen.getByRole('textbox', { name: /^Text/ }), 'Answer these for your child.');
    await user.type(screen.getByRole('textbox', { name: /Questions \(one a line\)/ }), 'Does your child have asthma?\nAny allergies?');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(published).toHaveLength(1));
    expect(confirm).toHaveBeenCalledWith(
      "Publish a new Children's health questionnaire? Parents will be asked to answer it for each child before the child's next booking.",
    );
    expect(published[0]).toMatchObject({ p_kind: 'child_parq', p_questions: ['Does your child have asthma?', 'Any allergies?'] });
  });

  it("lists who has signed, filters to who has not, and opens a member's record", async () => {
    const { filters, user } = setup();
    renderApp('/admin/documents');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('Not signed')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Only members who have not signed the current versions' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
    expect(filters).toEqual([false, true]);
    await user.click(screen.getByRole('button', { name: 'Signatures of Ava Turner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Signatures: Ava Turner' });
    expect(await within(dialog).findByText('Liability Waiver version 1')).toBeInTheDocument();
  });
});
