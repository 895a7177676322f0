import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router-dom';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import {
  AUTH_URL,
  authError,
  makeMember,
  makeSession,
  makeUser,
  memberHandler,
  passwordSignInHandler,
  rpc,
} from '@/testing/supabase-mocks';
import { SignInRoute } from './sign-in';

function Where() {
  const location = useLocation();
  return <p>Now at {`${location.pathname}${location.search}`}</p>;
}

const routes = [
  { path: '/signin', element: <SignInRoute /> },
  { path: '*', element: <Where /> },
];

/** The submit button inside the named form (the mode toggle has a button with the same name). */
function submitButton(form: 'Sign In' | 'Create Account') {
  return within(screen.getByRole('form', { name: form })).getByRole('button', { name: form });
}

function renderSignIn(url = '/signin') {
  const user = userEvent.setup();
  renderApp(url, { routes });
  return user;
}

describe('/signin', () => {
  it('validates email and password before sending anything', async () => {
    let requests = 0;
    server.use(http.post(`${AUTH_URL}/token`, () => void requests++));
    const user = renderSignIn();

    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters long')).toBeInTheDocument();
    await user.click(submitButton('Sign In'));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(submitButton('Sign In'));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 6 characters long');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toBe(0);
  });

  it.each([
    ['Invalid login credentials', 400, "Invalid email or password. Please check your credentials or sign up if you don't have an account."],
    ['Email not confirmed', 400, 'Please check your email and confirm your account before signing in.'],
    ['User not found', 404, 'No account found with this email. Please sign up first.'],
    ['Too many requests', 429, 'Too many sign-in attempts. Please wait a moment before trying again.'],
  ])('maps "%s" to the spec message', async (message, status, shown) => {
    server.use(passwordSignInHandler(() => authError(message, status)));
    const user = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'payg@studio.test');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(submitButton('Sign In'));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('signs in, ensures the member row and returns to the page that asked', async () => {
    const member = makeMember({ email: 'standard@studio.test' });
    const session = makeSession(makeUser({ id: member.user_id!, email: member.email }));
    let ensured = 0;
    server.use(
      passwordSignInHandler(({ email, password }) =>
        email === 'standard@studio.test' && password === 'studio123' ? session : authError('Invalid login credentials'),
      ),
      rpc('ensure_member', () => {
        ensured++;
        return member;
      }),
      rpc('my_coach_profile', () => []),
      memberHandler(member),
    );
    const user = renderSignIn(`/signin?redirect=${encodeURIComponent('/book?classId=abc')}`);
    await user.type(screen.getByLabelText('Email'), 'standard@studio.test');
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(submitButton('Sign In'));
    expect(await screen.findByText('Signed in successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Now at /book?classId=abc')).toBeInTheDocument();
    expect(ensured).toBe(1);
    await waitFor(() => expect(localStorage.getItem('ffEmail')).toBe('standard@studio.test'));
  });

  it('ignores an off-site redirect and goes to /my-schedule', async () => {
    const member = makeMember();
    server.use(
      passwordSignInHandler(() => makeSession(makeUser({ id: member.user_id!, email: member.email }))),
      rpc('ensure_member', () => member),
      rpc('my_coach_profile', () => []),
      memberHandler(member),
    );
    const user = renderSignIn(`/signin?redirect=${encodeURIComponent('//evil.example/x')}`);
    await user.type(screen.getByLabelText('Email'), member.email);
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(submitButton('Sign In'));
    expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
  });

  it('takes a coach to the coach area when no page asked (decision 0027)', async () => {
    const member = makeMember({ email: 'coach@studio.test' });
    server.use(
      passwordSignInHandler(() => makeSession(makeUser({ id: member.user_id!, email: member.email }))),
      rpc('ensure_member', () => member),
      rpc('my_coach_profile', () => [
        { id: 'trainer-1', name: 'Coach Alex', bio: '', photo_url: null, created_at: '2026-01-01T00:00:00Z' },
      ]),
      memberHandler(member),
    );
    const user = renderSignIn('/signin');
    await user.type(screen.getByLabelText('Email'), member.email);
    await user.type(screen.getByLabelText('Password'), 'studio123');
    await user.click(submitButton('Sign In'));
    expect(await screen.findByText('Now at /coach')).toBeInTheDocument();
  });

  it('creates an account with the name and the callback link, and says to confirm the email', async () => {
    let body: Record<string, unknown> | undefined;
    let redirectTo: string | null = null;
    server.use(
      http.post(`${AUTH_URL}/signup`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        redirectTo = new URL(request.url).searchParams.get('redirect_to');
        return HttpResponse.json(makeUser({ email: 'new@studio.test' }));
      }),
    );
    const user = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Full Name/), 'New Person');
    await user.type(screen.getByLabelText('Email'), 'new@studio.test');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    // They tick the unticked news-and-offers box themselves.
    const marketing = screen.getByRole('checkbox', { name: /Send me news and offers/ });
    expect(marketing).not.toBeChecked();
    await user.click(marketing);
    await user.click(submitButton('Create Account'));

    // The server wants the email confirmed, so that is all the page says.
    expect(await screen.findByText(/Check your email at/)).toHaveTextContent(
      'Check your email at new@studio.test for a confirmation link, then sign in.',
    );
    expect(screen.queryByText('Account created successfully! You can now sign in.')).not.toBeInTheDocument();
    expect(body).toMatchObject({
      email: 'new@studio.test',
      password: 'secret123',
      data: { full_name: 'New Person', marketing_opt_in: 'true' },
    });
    expect(redirectTo).toBe(`${window.location.origin}/auth/callback`);
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('new@studio.test');
  });

  it('says only "Account created successfully!" and goes on when the server signs the new account in', async () => {
    const member = makeMember({ email: 'new@studio.test' });
    const session = makeSession(makeUser({ id: member.user_id!, email: member.email }));
    server.use(
      http.post(`${AUTH_URL}/signup`, () => HttpResponse.json(session)),
      rpc('ensure_member', () => member),
      memberHandler(member),
    );
    const user = renderSignIn(`/signin?redirect=${encodeURIComponent('/membership')}`);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'new@studio.test');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(submitButton('Create Account'));
    expect(await screen.findByText('Account created successfully! You can now sign in.')).toBeInTheDocument();
    expect(await screen.findByText('Now at /membership')).toBeInTheDocument();
    expect(screen.queryByText(/confirm your email/)).not.toBeInTheDocument();
  });

  it('creates one account on a double click, and never shows an unreadable error', async () => {
    let signUps = 0;
    server.use(
      http.post(`${AUTH_URL}/signup`, () => {
        signUps += 1;
        return signUps === 1 ? HttpResponse.json(makeUser({ email: 'twice@studio.test' })) : HttpResponse.json({}, { status: 500 });
      }),
    );
    const user = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'twice@studio.test');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.dblClick(submitButton('Create Account'));
    expect(await screen.findByText(/Check your email at/)).toBeInTheDocument();
    expect(signUps).toBe(1);
    expect(screen.queryByText('{}')).not.toBeInTheDocument();
  });

  it('words a sign-up of an already registered address as hosted answers it: check your email, nothing more', async () => {
    // Hosted Supabase answers with a made-up user (no identities, no session) and no error.
    server.use(http.post(`${AUTH_URL}/signup`, () => HttpResponse.json({ ...makeUser({ email: 'premium@studio.test' }), identities: [] })));
    const user = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'premium@studio.test');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(submitButton('Create Account'));
    expect(await screen.findByText(/Check your email at/)).toHaveTextContent('Already confirmed this address? Just sign in.');
    expect(screen.queryByText(/User already registered/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sends a reset link to the recovery callback, and reports a failure', async () => {
    let redirectTo: string | null = null;
    let fail = false;
    server.use(
      http.post(`${AUTH_URL}/recover`, ({ request }) => {
        redirectTo = new URL(request.url).searchParams.get('redirect_to');
        return fail ? authError('Error sending recovery email', 500) : HttpResponse.json({});
      }),
    );
    const user = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'payg@studio.test');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Password reset email sent! Check your inbox.')).toBeInTheDocument();
    expect(redirectTo).toBe(`${window.location.origin}/auth/callback?type=recovery`);

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Failed to send reset email')).toBeInTheDocument();

    // Asked again within a minute: GoTrue's over_email_send_rate_limit, said as such.
    server.use(
      http.post(`${AUTH_URL}/recover`, () =>
        authError('For security purposes, you can only request this after 45 seconds.', 429, 'over_email_send_rate_limit'),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(
      await screen.findByText(
        'We sent you a reset link less than a minute ago. Check your inbox (and spam folder), or ask again in a minute.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });
});
