import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { AUTH_URL, authError, makeUser } from '@/testing/supabase-mocks';
import { FreeTrialRoute } from './free-trial';

function renderTrial() {
  const user = userEvent.setup();
  renderApp('/free-trial', { routes: [{ path: '/free-trial', element: <FreeTrialRoute /> }] });
  return user;
}

describe('/free-trial', () => {
  it('requires full name, email and a 6-character password', async () => {
    let requests = 0;
    server.use(http.post(`${AUTH_URL}/signup`, () => void requests++));
    const user = renderTrial();
    expect(screen.getByRole('heading', { name: 'Your First Class Is On Us' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    expect(screen.getByText('Full name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 6 characters long');
    expect(requests).toBe(0);
  });

  it('signs up as a free-trial member and asks to confirm the email', async () => {
    let body: Record<string, unknown> | undefined;
    let redirectTo: string | null = null;
    server.use(
      http.post(`${AUTH_URL}/signup`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        redirectTo = new URL(request.url).searchParams.get('redirect_to');
        return HttpResponse.json(makeUser({ email: 'trial-new@studio.test' }));
      }),
    );
    const user = renderTrial();
    await user.type(screen.getByLabelText('Full Name'), 'Tia Trial');
    await user.type(screen.getByLabelText('Email'), 'trial-new@studio.test');
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    expect(
      await screen.findAllByText('Check your email to confirm your account, then book your free class within 7 days!'),
    ).not.toHaveLength(0);
    expect(body).toMatchObject({
      email: 'trial-new@studio.test',
      password: 'studio123',
      // The news-and-offers box starts unticked: marketing only with the person's own yes.
      data: { full_name: 'Tia Trial', signup_source: 'free-trial', marketing_opt_in: 'false' },
    });
    expect(redirectTo).toBe(`${window.location.origin}/auth/callback`);
    expect(screen.queryByRole('button', { name: 'Start My Free Trial' })).not.toBeInTheDocument();
  });

  it('names a full name longer than an account takes on its field, and signs nobody up', async () => {
    let signUps = 0;
    server.use(http.post(`${AUTH_URL}/signup`, () => (signUps++, HttpResponse.json(makeUser({ email: 'long@studio.test' })))));
    const user = renderTrial();
    const name = screen.getByLabelText('Full Name');
    await user.click(name);
    await user.paste('N'.repeat(101));
    await user.type(screen.getByLabelText('Email'), 'long@studio.test');
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    expect(await screen.findByText('Your name is too long (at most 100 characters)')).toBeInTheDocument();
    expect(signUps).toBe(0);
  });

  it('shows the server message when the sign-up is refused', async () => {
    server.use(http.post(`${AUTH_URL}/signup`, () => authError('Password is known to be weak and easy to guess', 422, 'weak_password')));
    const user = renderTrial();
    await user.type(screen.getByLabelText('Full Name'), 'Tia Trial');
    await user.type(screen.getByLabelText('Email'), 'trial@studio.test');
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    expect(await screen.findByText('Password is known to be weak and easy to guess')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start My Free Trial' })).toBeEnabled();
  });

  // An email that already has an account gets no promise of a trial. Supabase answers
  // such a sign-up with a user without identities (email confirmation on, as hosted) or
  // user_already_exists (off): the page says only what that answer says, and points to the plans.
  it.each([
    [
      'a user without identities',
      () => HttpResponse.json({ ...makeUser({ email: 'payg@studio.test' }), email_confirmed_at: null, identities: [] }),
    ],
    ['user_already_exists', () => authError('User already registered', 422, 'user_already_exists')],
  ])('an email that already has an account (%s) is not promised a free trial', async (_, answer) => {
    server.use(http.post(`${AUTH_URL}/signup`, answer));
    const user = renderTrial();
    await user.type(screen.getByLabelText('Full Name'), 'Pat Payg');
    await user.type(screen.getByLabelText('Email'), 'payg@studio.test');
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(screen.getByRole('button', { name: 'Start My Free Trial' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('This email already has an account, so no new free trial starts.');
    expect(screen.queryByText(/book your free class within 7 days/)).not.toBeInTheDocument();
    expect(within(status).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(within(status).getByRole('link', { name: 'See memberships and packages' })).toHaveAttribute('href', '/membership');
  });
});
