import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
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
  rpc,
  seedSession,
  signInAs,
} from '@/testing/supabase-mocks';
import { AuthCallbackRoute } from './auth-callback';
import { SignInRoute } from './sign-in';

function Where() {
  return <p>Now at {useLocation().pathname}</p>;
}

function renderCallback(url: string) {
  const user = userEvent.setup();
  renderApp(url, {
    routes: [
      { path: '/auth/callback', element: <AuthCallbackRoute /> },
      { path: '/signin', element: <SignInRoute /> },
      { path: '*', element: <Where /> },
    ],
  });
  return user;
}

const API_VERSION = { 'x-supabase-api-version': '2024-01-01' };
/** GoTrue's answer to a used or expired link (internal/api/verify.go, verifyTokenHash). */
const linkExpired = () => authError('Email link is invalid or has expired', 403, 'otp_expired');

/**
 * POST /auth/v1/verify (supabase-js's verifyOtp), answered by `answer`; records what was sent.
 * The browser is signed out: the link is opened where nobody asked for it.
 */
function verifyHandler(answer: () => Response) {
  const sent: unknown[] = [];
  const handler = http.post(`${AUTH_URL}/verify`, async ({ request }) => {
    sent.push(await request.json());
    return answer();
  });
  return { handler, sent };
}

/** A fresh browser's member: nothing stored, the session comes from the link. */
function linkedMember(email = 'phone@studio.test') {
  const member = makeMember({ email });
  const session = makeSession(makeUser({ id: member.user_id!, email }));
  return { member, session, verified: () => HttpResponse.json(session, { headers: API_VERSION }) };
}

describe('/auth/callback', () => {
  it('says sign-in failed, with a link back, when the link gave no session', async () => {
    const user = renderCallback('/auth/callback');
    expect(await screen.findByText('Sign-in failed, please try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Sign In' }));
    expect(await screen.findByRole('form', { name: 'Sign In' })).toBeInTheDocument();
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

  it('a free-trial sign-up whose email had its trial before is told so once confirmed, and sent to the plans', async () => {
    const member = makeMember({ email: 'again@studio.test', membership_tier: 'payg', has_used_trial: true });
    seedSession(makeSession(makeUser({ id: member.user_id ?? undefined, email: member.email, metadata: { signup_source: 'free-trial' } })));
    server.use(
      memberHandler(member),
      rpc('ensure_member', () => member),
    );
    renderCallback('/auth/callback');
    expect(await screen.findByText('Now at /membership')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'This email has had its free trial before, so your account is pay-as-you-go. See our memberships and packages.',
      ),
    ).toBeInTheDocument();
  });

  it('a free-trial sign-up that got its trial goes to /my-schedule as usual', async () => {
    const member = makeMember({ email: 'fresh@studio.test', membership_tier: 'trial' });
    seedSession(makeSession(makeUser({ id: member.user_id ?? undefined, email: member.email, metadata: { signup_source: 'free-trial' } })));
    server.use(
      memberHandler(member),
      rpc('ensure_member', () => member),
    );
    renderCallback('/auth/callback');
    expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
  });

  it('still goes on when creating the member row fails (only logged)', async () => {
    const { member } = signInAs();
    server.use(
      memberHandler(member),
      rpc('ensure_member', () => HttpResponse.json({ code: 'XX000', message: 'boom' }, { status: 500 })),
    );
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
        return HttpResponse.json({
          id: member.user_id,
          email: member.email,
          aud: 'authenticated',
          role: 'authenticated',
          user_metadata: {},
          app_metadata: {},
        });
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

  describe('links of the current emails (?token_hash=…&type=…, verified here: any browser, any device)', () => {
    it('a reset link opened in a browser that never asked: set a new password, then on to /my-schedule', async () => {
      const { member, verified } = linkedMember();
      const verify = verifyHandler(verified);
      let newPassword: unknown;
      server.use(
        verify.handler,
        memberHandler(member),
        rpc('ensure_member', () => member),
        http.put(`${AUTH_URL}/user`, async ({ request }) => {
          newPassword = ((await request.json()) as { password: string }).password;
          return HttpResponse.json(makeUser({ id: member.user_id!, email: member.email }), { headers: API_VERSION });
        }),
      );
      const user = renderCallback('/auth/callback?token_hash=pkce_0123abcd&type=recovery');
      expect(await screen.findByRole('heading', { name: 'Set a New Password' })).toBeInTheDocument();
      expect(verify.sent).toEqual([expect.objectContaining({ token_hash: 'pkce_0123abcd', type: 'recovery' })]);
      expect(localStorage.getItem('ffEmail')).toBe('phone@studio.test');

      await user.type(screen.getByLabelText('New Password'), 'phone-pass-1');
      await user.type(screen.getByLabelText('Confirm New Password'), 'phone-pass-1');
      await user.click(screen.getByRole('button', { name: 'Update Password' }));
      expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
      expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
      expect(newPassword).toBe('phone-pass-1');
      expect(verify.sent).toHaveLength(1);
    });

    it('an invitation (an imported member) signs in once and asks them to choose a password', async () => {
      const { member, verified } = linkedMember('imported@studio.test');
      const verify = verifyHandler(verified);
      let newPassword: unknown;
      server.use(
        verify.handler,
        memberHandler(member),
        rpc('ensure_member', () => member),
        http.put(`${AUTH_URL}/user`, async ({ request }) => {
          newPassword = ((await request.json()) as { password: string }).password;
          return HttpResponse.json(makeUser({ id: member.user_id!, email: member.email }), { headers: API_VERSION });
        }),
      );
      const user = renderCallback('/auth/callback?token_hash=invite-0123&type=invite');
      expect(await screen.findByRole('heading', { name: 'Set a New Password' })).toBeInTheDocument();
      expect(verify.sent).toEqual([expect.objectContaining({ token_hash: 'invite-0123', type: 'invite' })]);
      await user.type(screen.getByLabelText('New Password'), 'invited-pass-1');
      await user.type(screen.getByLabelText('Confirm New Password'), 'invited-pass-1');
      await user.click(screen.getByRole('button', { name: 'Update Password' }));
      expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
      expect(newPassword).toBe('invited-pass-1');
    });

    it('a confirmation link (type email) confirms, signs in, ensures the member row and goes to /my-schedule', async () => {
      const { member, verified } = linkedMember('newcomer@studio.test');
      const verify = verifyHandler(verified);
      let ensured = 0;
      server.use(
        verify.handler,
        memberHandler(member),
        rpc('ensure_member', () => {
          ensured++;
          return member;
        }),
      );
      renderCallback('/auth/callback?token_hash=abc123&type=email');
      expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
      expect(verify.sent).toEqual([expect.objectContaining({ token_hash: 'abc123', type: 'email' })]);
      expect(localStorage.getItem('ffEmail')).toBe('newcomer@studio.test');
      expect(ensured).toBe(1);
    });

    it('an expired or used reset link says so, with a way to ask for a new one', async () => {
      server.use(verifyHandler(linkExpired).handler);
      const user = renderCallback('/auth/callback?token_hash=used-one&type=recovery');
      expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired, request a new one');
      expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
      expect(screen.queryByText('Sign-in failed, please try again.')).not.toBeInTheDocument();
      await user.click(screen.getByRole('link', { name: 'Request a New Link' }));
      // The forgot-password view of /signin, ready for the address.
      expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
      expect(screen.getByRole('textbox', { name: 'Email' })).toBeInTheDocument();
    });

    it('an expired or used confirmation link says so, and leads to Create Account (which sends a new one) or Sign In', async () => {
      server.use(verifyHandler(linkExpired).handler);
      const user = renderCallback('/auth/callback?token_hash=old-one&type=email');
      expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired, request a new one');
      expect(
        screen.getByText(
          /Create your account again with the same email to get a new confirmation link\. Already confirmed\? Just sign in\./,
        ),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/signin');
      await user.click(screen.getByRole('link', { name: 'Request a New Link' }));
      expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Create Account', pressed: true })).toBeInTheDocument();
    });

    it("the first of an email change's two links says to follow the other one", async () => {
      const verify = verifyHandler(() =>
        HttpResponse.json(
          { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' },
          { headers: API_VERSION },
        ),
      );
      server.use(verify.handler);
      renderCallback('/auth/callback?token_hash=half&type=email_change');
      expect(await screen.findByText('Confirmation link accepted. Please proceed to confirm link sent to the other email')).toHaveAttribute(
        'role',
        'status',
      );
      expect(screen.getByRole('heading', { name: 'Change Email' })).toBeInTheDocument();
    });

    it('a link without its type is incomplete; nothing is sent', async () => {
      const verify = verifyHandler(linkExpired);
      server.use(verify.handler);
      renderCallback('/auth/callback?token_hash=abc123');
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'This link is incomplete. Open it straight from the email, or request a new one.',
      );
      expect(verify.sent).toEqual([]);
    });

    it('when the server cannot be reached it says so, and Try Again verifies the same link again', async () => {
      const { member, verified } = linkedMember();
      let reachable = false;
      const verify = verifyHandler(() => (reachable ? verified() : HttpResponse.error()));
      server.use(
        verify.handler,
        memberHandler(member),
        rpc('ensure_member', () => member),
      );
      // supabase-js logs the failed fetch itself, once.
      const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
      const user = renderCallback('/auth/callback?token_hash=flaky&type=email');
      expect(await screen.findByRole('alert')).toHaveTextContent(
        "We couldn't reach the server to check this link. Check your connection and try again.",
      );
      expect(logged).toHaveBeenCalledWith(expect.any(TypeError));
      reachable = true;
      await user.click(screen.getByRole('button', { name: 'Try Again' }));
      expect(await screen.findByText('Now at /my-schedule')).toBeInTheDocument();
      expect(verify.sent).toHaveLength(2);
    });

    it('too many attempts say to wait, not that the link failed', async () => {
      server.use(verifyHandler(() => authError('Request rate limit reached', 429, 'over_request_rate_limit')).handler);
      renderCallback('/auth/callback?token_hash=busy&type=recovery');
      expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a moment, then try again.');
      expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    });
  });

  describe("links sent before (the PKCE ?code= flow, and GoTrue's error redirect)", () => {
    it('a confirmation ?code= opened in another browser: the address is confirmed, sign in', async () => {
      const user = renderCallback('/auth/callback?code=0b6f1a2c-5d6e-4f70-8a9b-0c1d2e3f4a5b');
      expect(await screen.findByText('Your email is confirmed. Sign in to continue.')).toHaveAttribute('role', 'status');
      expect(screen.queryByText('Sign-in failed, please try again.')).not.toBeInTheDocument();
      await user.click(screen.getByRole('link', { name: 'Sign In' }));
      expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    });

    it('a reset ?code= opened in another browser says where it works, with a way to ask for a new one', async () => {
      renderCallback('/auth/callback?type=recovery&code=0b6f1a2c-5d6e-4f70-8a9b-0c1d2e3f4a5b');
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'This reset link only works in the browser that asked for it. Open it there, or request a new one here.',
      );
      expect(screen.getByRole('link', { name: 'Request a New Link' })).toHaveAttribute('href', '/signin?view=reset');
    });

    it("GoTrue's redirect for an expired or used link (error_code=otp_expired) says the link has expired", async () => {
      renderCallback(
        '/auth/callback?type=recovery&error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=',
      );
      expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired, request a new one');
      expect(screen.getByRole('link', { name: 'Request a New Link' })).toHaveAttribute('href', '/signin?view=reset');
    });
  });
});
