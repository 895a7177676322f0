import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES, GUEST_WAIVER_MESSAGES } from '@/features/documents/lib/document-words';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, rpc } from '@/testing/supabase-mocks';

// A guest (no account) reads the studio's waiver and signs it with their typed full name
// from the link in their guest email.

const TOKEN = 'b'.repeat(48);
const WAIVER_ID = 'd0000000-0000-4000-8000-000000000002';
const unsigned = {
  guest_name: 'Gus Guest',
  class_name: 'Breakfast Club',
  start_time: '2030-03-04T06:00:00Z',
  host_name: 'Hana Host',
  document_id: WAIVER_ID,
  version: 2,
  title: 'Liability Waiver and Assumption of Risk',
  body: 'Exercise carries a risk of injury.\n\nTell your coach about any injury.',
  signed_name: null,
  signed_at: null,
};

/** The signed message (role status, like the loading spinner before it). */
const signedStatus = async () => (await screen.findByRole('heading', { name: 'You have signed the waiver' })).closest('[role="status"]');

describe('/guest/waiver', () => {
  it('shows the class and the waiver, and signs it with the typed full name', async () => {
    const calls: unknown[] = [];
    server.use(
      rpc('guest_waiver', () => unsigned),
      rpc('sign_guest_waiver', ({ args }) => {
        calls.push(args);
        return { ...unsigned, signed_name: 'Gus A. Guest', signed_at: '2030-03-01T10:00:00Z' };
      }),
    );
    const user = userEvent.setup();
    renderApp(`/guest/waiver?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign the waiver' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        "Hana Host has booked you a place on Breakfast Club, Mon 4 Mar at 6:00 AM, as their guest. Please read the studio's waiver and sign it with your full name before the class: you cannot take part until you have signed it.",
      ),
    ).toBeInTheDocument();
    const text = screen.getByRole('region', { name: 'Liability Waiver and Assumption of Risk' });
    expect(within(text).getByText('Tell your coach about any injury.')).toBeInTheDocument();
    expect(screen.getByText('Version 2')).toBeInTheDocument();

    // Nothing is signed without the tick and a name.
    const name = screen.getByLabelText(DOCUMENT_MESSAGES.signatureLabel);
    expect(name).toHaveValue('Gus Guest');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Sign the waiver' }));
    expect(await screen.findByText(DOCUMENT_MESSAGES.acceptRequired)).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription(expect.stringContaining(DOCUMENT_MESSAGES.signatureRequired));
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
    await user.type(name, '  Gus A. Guest ');
    await user.click(screen.getByRole('button', { name: 'Sign the waiver' }));
    const done = await signedStatus();
    expect(done).toHaveTextContent('Liability Waiver and Assumption of Risk: Version 2, signed 1 Mar 2030, as Gus A. Guest.');
    expect(done).toHaveTextContent('Thank you. See you at Breakfast Club, Mon 4 Mar at 6:00 AM.');
    expect(done).toHaveFocus();
    expect(calls).toEqual([{ p_token: TOKEN, p_signed_name: 'Gus A. Guest', p_document_id: WAIVER_ID }]);
    expect(screen.queryByRole('button', { name: 'Sign the waiver' })).not.toBeInTheDocument();
  });

  it('a guest who already signed sees their signature, and no form', async () => {
    server.use(rpc('guest_waiver', () => ({ ...unsigned, signed_name: 'Gus Guest', signed_at: '2030-02-01T10:00:00Z' })));
    renderApp(`/guest/waiver?token=${TOKEN}`);
    expect(await signedStatus()).toHaveTextContent('Version 2, signed 1 Feb 2030, as Gus Guest.');
    expect(screen.queryByRole('button', { name: 'Sign the waiver' })).not.toBeInTheDocument();
  });

  it("says the database's reason when the link no longer works (place cancelled, class started)", async () => {
    const gone = 'This guest place has been cancelled, or the link is not complete';
    server.use(rpc('guest_waiver', () => postgrestError({ code: 'PT404', message: gone, hint: 'guest_not_found' }, 404)));
    renderApp(`/guest/waiver?token=${TOKEN}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(GUEST_WAIVER_MESSAGES.linkGone);
    expect(alert).toHaveTextContent(gone);
    expect(screen.queryByRole('button', { name: 'Sign the waiver' })).not.toBeInTheDocument();
  });

  it('shows a refusal on signing (the class started meanwhile) and keeps the form', async () => {
    server.use(
      rpc('guest_waiver', () => unsigned),
      rpc('sign_guest_waiver', () => postgrestError({ code: 'P0001', message: 'This class has already started', hint: 'class_started' })),
    );
    const user = userEvent.setup();
    renderApp(`/guest/waiver?token=${TOKEN}`);
    await user.click(await screen.findByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
    await user.click(screen.getByRole('button', { name: 'Sign the waiver' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This class has already started');
  });

  it('with no waiver published, there is nothing to sign', async () => {
    server.use(rpc('guest_waiver', () => ({ ...unsigned, document_id: null, version: null, title: null, body: null })));
    renderApp(`/guest/waiver?token=${TOKEN}`);
    expect(await screen.findByText(/The studio has no waiver for you to sign: just arrive 10 minutes early\.$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign the waiver' })).not.toBeInTheDocument();
  });

  it('a link without its token says so and offers nothing to press', async () => {
    renderApp('/guest/waiver');
    expect(await screen.findByRole('alert')).toHaveTextContent(GUEST_WAIVER_MESSAGES.incompleteLink);
    expect(screen.queryByRole('button', { name: 'Sign the waiver' })).not.toBeInTheDocument();
  });
});
