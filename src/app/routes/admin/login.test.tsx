import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { AUTH_URL, authError, makeMember, makeSession, makeUser, passwordSignInHandler, restGet } from '@/testing/supabase-mocks';
import { logoutHandler, membersHandler } from '@/testing/admin-fixtures';

async function fillAndSubmit(email = 'admin@studio.test', password = 'studio123') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

/** A promise the test resolves, so a handler answers only once the busy state has been checked. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open: () => open() };
}

function signInOk(email: string) {
  return passwordSignInHandler(() => makeSession(makeUser({ email })));
}

describe('/admin/login', () => {
  it('shows the sign-in form with its links', async () => {
    renderApp('/admin/login');
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('maps invalid credentials to the spec message', async () => {
    server.use(passwordSignInHandler(() => authError('Invalid login credentials', 400, 'invalid_credentials')));
    renderApp('/admin/login');
    await fillAndSubmit('admin@studio.test', 'wrong1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
  });

  it('shows other server errors as they are', async () => {
    server.use(passwordSignInHandler(() => authError('Email not confirmed', 400, 'email_not_confirmed')));
    renderApp('/admin/login');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Email not confirmed');
  });

  it('ends the session of a member who is not an admin', async () => {
    let loggedOut = false;
    server.use(
      signInOk('sam@studio.test'),
      membersHandler(makeMember({ email: 'sam@studio.test', is_admin: false })),
      http.post(`${AUTH_URL}/logout`, () => {
        loggedOut = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp('/admin/login');
    await fillAndSubmit('sam@studio.test');
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
    expect(loggedOut).toBe(true);
    expect(localStorage.getItem('adminAuthenticated')).toBeNull();
  });

  it('ends the session when there is no member record', async () => {
    server.use(signInOk('ghost@studio.test'), membersHandler(null), logoutHandler);
    renderApp('/admin/login');
    await fillAndSubmit('ghost@studio.test');
    expect(await screen.findByRole('alert')).toHaveTextContent('No member record found. Please contact support.');
  });

  it('says "Signing in..." while busy, then welcomes the admin at /admin', async () => {
    const admin = makeMember({ email: 'admin@studio.test', is_admin: true });
    const answer = gate();
    server.use(
      http.post(`${AUTH_URL}/token`, async () => {
        await answer.opened;
        return HttpResponse.json(makeSession(makeUser({ id: admin.user_id!, email: admin.email })));
      }),
      membersHandler(admin),
      restGet('classes', () => []),
      restGet('studio_closures', () => []),
    );
    const { router } = renderApp('/admin/login');
    await fillAndSubmit();
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    answer.open();
    expect(await screen.findByText('Welcome, Admin!')).toBeInTheDocument();
    expect(localStorage.getItem('adminAuthenticated')).toBe('true');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('heading', { name: 'Classes Management' })).toBeInTheDocument();
    // Wait for the list's answer: its request starts after the session resolves, and one still on its
    // way when the test ends would reach the next test's handlers.
    expect(await screen.findByText('No classes yet')).toBeInTheDocument();
  });

  it('sends a reset link from the reset view and goes back to sign in', async () => {
    let body: unknown;
    const answer = gate();
    server.use(
      http.post(`${AUTH_URL}/recover`, async ({ request }) => {
        body = await request.json();
        await answer.opened;
        return HttpResponse.json({});
      }),
    );
    renderApp('/admin/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeRequired();
    await user.type(screen.getByLabelText('Email'), 'admin@studio.test');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    answer.open();
    expect(await screen.findByText('Password reset email sent! Check your inbox.')).toBeInTheDocument();
    expect(body).toMatchObject({ email: 'admin@studio.test' });
    await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
  });

  it('shows "Failed to send reset email" for a server failure and the server message for a refusal', async () => {
    let status = 500;
    server.use(
      http.post(`${AUTH_URL}/recover`, () =>
        status === 500
          ? HttpResponse.json({}, { status })
          : authError('For security purposes, you can only request this after 60 seconds.', 429, 'over_email_send_rate_limit'),
      ),
    );
    renderApp('/admin/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    await user.type(screen.getByLabelText('Email'), 'admin@studio.test');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Failed to send reset email')).toBeInTheDocument();
    status = 429;
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('For security purposes, you can only request this after 60 seconds.')).toBeInTheDocument();
  });
});
