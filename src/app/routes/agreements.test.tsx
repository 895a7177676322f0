import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentsHandlers, TEST_DOCUMENTS } from '@/features/documents/testing/documents-mocks';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { AgreementsRoute } from './agreements';
import { memberHandler, postgrestError, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

/** Ticks both documents, answers No to every PAR-Q question and consents: all but the signature. */
async function completeEverythingButTheName(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms of Membership' }));
  await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
  for (const group of screen.getAllByRole('group')) await user.click(within(group).getByRole('radio', { name: 'No' }));
  await user.click(screen.getByRole('checkbox', { name: /I consent/ }));
}

/** The sign page alone, and where `next` sends the member. */
const routes = [
  { path: '/agreements', element: <AgreementsRoute /> },
  { path: '/my-schedule', element: <p>Book a class</p> },
];
const renderAgreements = (url = '/agreements') => renderApp(url, { routes });

function setup(signed: boolean) {
  const me = signInAs({ name: 'Tess Trial', membership_tier: 'trial' });
  server.use(memberHandler(me.member), ...documentsHandlers({ signed }));
  return me;
}

describe('/agreements (the sign page)', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('asks a new member to accept the terms and waiver, answer the PAR-Q, consent and type their name', async () => {
    setup(false);
    let signedWith: Record<string, unknown> | undefined;
    server.use(
      rpc('sign_documents', ({ args }) => {
        signedWith = args;
        return [];
      }),
    );
    const user = userEvent.setup();
    const { router } = renderAgreements('/agreements?next=%2Fmy-schedule');

    expect(await screen.findByRole('heading', { name: 'Before you train', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Terms of Membership' })).toHaveTextContent('Book and cancel in good time.');
    expect(screen.getByText('What changed: Outdoor sessions added.')).toBeInTheDocument();

    // Nothing is sent until every part is done.
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(await screen.findAllByText('Please tick to accept')).toHaveLength(2);
    expect(screen.getAllByText('Please answer yes or no')).toHaveLength(2);
    expect(screen.getByText('We need your consent to keep your health answers')).toBeInTheDocument();
    expect(signedWith).toBeUndefined();

    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms of Membership' }));
    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
    const q1 = screen.getByRole('group', { name: /heart condition/ });
    await user.click(within(q1).getByRole('radio', { name: 'No' }));
    const q2 = screen.getByRole('group', { name: /pain in your chest/ });
    await user.click(within(q2).getByRole('radio', { name: 'Yes' }));
    await user.type(screen.getByRole('textbox', { name: /Anything your coach should know/ }), 'Mild asthma');
    await user.click(screen.getByRole('checkbox', { name: /I consent to Finer Fitness keeping my health answers/ }));
    const signature = screen.getByRole('textbox', { name: 'Type your full name to sign' });
    expect(signature).toHaveValue('Tess Trial');
    // The account's name, typed in another case and spacing: sent as typed.
    await user.clear(signature);
    await user.type(signature, 'tess  TRIAL.');
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/my-schedule'));
    expect(signedWith).toEqual({
      p_signed_name: 'tess  TRIAL.',
      p_document_ids: TEST_DOCUMENTS.map((d) => d.id),
      p_answers: [false, true],
      p_details: 'Mild asthma',
      p_health_consent: true,
    });
  });

  it('refuses a signature that is not the name on the account, on the field, and signs nothing', async () => {
    setup(false);
    let signCalls = 0;
    server.use(rpc('sign_documents', () => (signCalls++, [])));
    const user = userEvent.setup();
    renderAgreements();
    await screen.findByRole('heading', { name: 'Before you train', level: 1 });
    await completeEverythingButTheName(user);
    const signature = screen.getByRole('textbox', { name: 'Type your full name to sign' });
    await user.clear(signature);
    await user.type(signature, 'Someone Else');
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(signature).toHaveAccessibleDescription(
      expect.stringContaining(
        'Type the name on your account to sign: Tess Trial. If that is not your full name, change it in Edit Profile first.',
      ) as string,
    );
    expect(signCalls).toBe(0);
  });

  it('asks an account without a name for it: the name signed with is saved to the account first', async () => {
    const me = signInAs({ name: null, membership_tier: 'trial' });
    server.use(memberHandler(me.member), ...documentsHandlers({ signed: false }));
    const order: string[] = [];
    const patches: unknown[] = [];
    let signedWith: Record<string, unknown> | undefined;
    server.use(
      http.patch(`${REST_URL}/members`, async ({ request }) => {
        order.push('name');
        patches.push(await request.json());
        return HttpResponse.json([{ id: me.member.id }]);
      }),
      rpc('sign_documents', ({ args }) => {
        order.push('sign');
        signedWith = args;
        return [];
      }),
    );
    const user = userEvent.setup();
    renderAgreements();
    await screen.findByRole('heading', { name: 'Before you train', level: 1 });
    const signature = screen.getByRole('textbox', { name: 'Type your full name to sign' });
    expect(signature).toHaveValue('');
    expect(signature).toHaveAccessibleDescription(
      expect.stringContaining("Your account has no name yet: the name you sign with is saved as your account's name.") as string,
    );
    await completeEverythingButTheName(user);
    await user.type(signature, ' Nia Nameless ');
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(await screen.findByText('Thank you: you can book classes now.')).toBeInTheDocument();
    expect(order).toEqual(['name', 'sign']);
    expect(patches).toEqual([{ name: 'Nia Nameless' }]);
    expect(signedWith).toMatchObject({ p_signed_name: 'Nia Nameless' });
  });

  it('shows the database refusal when a document changed while the page was open', async () => {
    setup(false);
    server.use(
      rpc('sign_documents', () =>
        postgrestError({
          code: 'P0001',
          hint: 'document_not_current',
          message: 'This document has changed since you opened it: please read the new version',
        }),
      ),
    );
    const user = userEvent.setup();
    renderAgreements();
    await screen.findByRole('heading', { name: 'Before you train', level: 1 });
    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms of Membership' }));
    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
    for (const group of screen.getAllByRole('group')) await user.click(within(group).getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('checkbox', { name: /I consent/ }));
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(await screen.findByText('This document has changed since you opened it: please read the new version')).toBeInTheDocument();
  });

  it('once signed, lists each version and lets the member download and withdraw their health answers', async () => {
    const me = setup(true);
    let withdrawn = false;
    server.use(
      restGet('health_answers', () =>
        withdrawn
          ? []
          : [
              {
                answers: [false, true],
                details: 'Mild asthma',
                consented_at: '2026-02-01T10:00:00Z',
                answered_at: '2026-02-01T10:00:00Z',
                signed_name: 'Tess Trial',
                document_versions: { version: 1, title: TEST_DOCUMENTS[2]!.title, questions: TEST_DOCUMENTS[2]!.questions },
              },
            ],
      ),
      rpc('withdraw_health_answers', () => {
        withdrawn = true;
        return true;
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = userEvent.setup();
    renderAgreements();

    expect(await screen.findByText('You have signed everything: you can book classes.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Liability Waiver' })).toHaveAttribute('href', '/legal/waiver');
    expect(screen.getAllByText('Version 2, signed 1 Feb 2026')).toHaveLength(1);
    expect(
      await screen.findByText('You answered yes to at least one question: your coach will have a word with you before class.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download (JSON)' }));
    await user.click(screen.getByRole('button', { name: 'Download (readable page)' }));
    const types = (createObjectURL.mock.calls as unknown as [Blob][]).map(([blob]) => blob.type);
    expect(types).toEqual(['application/json', 'text/html']);

    await user.click(screen.getByRole('button', { name: 'Withdraw my health answers' }));
    expect(await screen.findByText('You have no health answers on record.')).toBeInTheDocument();
    expect(me.member.id).toBeTruthy();
  });
});
