import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router-dom';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { AUTH_URL, memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { AuthCallbackRoute } from './auth-callback';

function Where() {
  return <p>Now at {useLocation().pathname}</p>;
}

function renderCallback(url: string) {
  const user = userEvent.setup();
  renderApp(url, {
    routes: [
      { path: '/auth/callback', element: <AuthCallbackRoute /> },
      { path: '*', element: <Where /> },
    ],
  });
  return user;
}

describe('/auth/callback', () => {
  it('says sign-in failed, with a link back, when the link gave no session', async () => {
    const user = renderCallback('/auth/callback');
    expect(await screen.findByText('Sign-in failed, please try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Sign In' }));
    expect(await screen.findByText('Now at /signin')).toBeInTheDocument();
  });

  it('stores the email, ensures the member row and goes to /my-schedule', async () => {
    const { member } = signInAs({ email: 'newpayg@studio.test' });
    let ensured = 0;
    server.use(
      memberHandler(member),
      rpc('ensure_member', () => {
        ensured++;
        return member;
      }),
    );
    renderCallback('/auth/callback');
    expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
    expect(localStorage.getItem('ffEmail')).toBe('newpayg@studio.test');
    expect(ensured).toBe(1);
  });

  it('still goes on when creating the member row fails (only logged)', async () => {
    const { member } = signInAs();
    server.use(memberHandler(member), rpc('ensure_member', () => HttpResponse.json({ code: 'XX000', message: 'boom' }, { status: 500 })));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderCallback('/auth/callback');
    expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('ensure_member failed', 'boom');
    warn.mockRestore();
  });

  it('asks for a new password on a recovery link, with the spec rules', async () => {
    const { member } = signInAs();
    let newPassword: unknown;
    server.use(
      memberHandler(member),
      rpc('ensure_member', () => member),
      http.put(`${AUTH_URL}/user`, async ({ request }) => {
        newPassword = ((await request.json()) as { password: string }).password;
        return HttpResponse.json({ id: member.user_id, email: member.email, aud: 'authenticated', role: 'authenticated', user_metadata: {}, app_metadata: {} });
      }),
    );
    const user = renderCallback('/auth/callback?type=recovery');
    const submit = await screen.findByRole('button', { name: 'Update Password' });
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in both password fields');
    await user.type(screen.getByLabelText('New Password'), 'short');
    await user.type(screen.getByLabelText('Confirm New Password'), 'short');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters long');
    await user.clear(screen.getByLabelText('New Password'));
    await user.type(screen.getByLabelText('New Password'), 'newsecret1');
    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'newsecret2');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'newsecret1');
    await user.click(submit);
    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
    expect(newPassword).toBe('newsecret1');
  });
});
