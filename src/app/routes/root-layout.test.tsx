import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import type { Session, User } from '@supabase/supabase-js';
import { AuthContext, type AuthState } from '@/lib/auth/auth-context';
import type { Member } from '@/lib/supabase';
import { RootLayout } from './root-layout';

const user = { id: 'u1', email: 'payg@studio.test' } as User;

function authState(overrides: Partial<AuthState> = {}): AuthState {
  return {
    loading: false,
    session: { user } as Session,
    user,
    member: null,
    memberLoading: false,
    refreshMember: vi.fn(() => Promise.resolve(null)),
    signOut: vi.fn(() => Promise.resolve()),
    signedOut: false,
    ...overrides,
  };
}

function renderLayout(auth: AuthState, url = '/dashboard') {
  const router = createMemoryRouter([{ element: <RootLayout />, children: [{ path: '*', element: <p>screen</p> }] }], {
    initialEntries: [url],
  });
  render(
    <AuthContext.Provider value={auth}>
      <RouterProvider router={router} />
      <Toaster />
    </AuthContext.Provider>,
  );
  return router;
}

describe('RootLayout', () => {
  it('shows the public header with Sign In when signed out', async () => {
    renderLayout(authState({ session: null, user: null }), '/');
    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(screen.queryByRole('navigation', { name: 'Member' })).not.toBeInTheDocument();
  });

  it('shows the member navigation with the spec labels and targets when signed in', async () => {
    renderLayout(authState({ member: { name: 'Ada Lovelace', email: 'ada@x.io', profile_image_url: null } as Member }));
    const nav = await screen.findByRole('navigation', { name: 'Member' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['My Schedule', '/my-classes'],
      ['Book a Class', '/my-schedule'],
      ['Membership', '/membership'],
      ['Edit Profile', '/edit-profile'],
    ]);
    expect(screen.getByRole('img', { name: 'Signed in as Ada Lovelace' })).toHaveTextContent('AL');
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('falls back to the first two letters of the email for the avatar', async () => {
    renderLayout(authState());
    expect(await screen.findByRole('img', { name: 'Signed in as payg@studio.test' })).toHaveTextContent('PA');
  });

  it('logs out, says so and goes home', async () => {
    const auth = authState();
    const router = renderLayout(auth);
    const [logOut] = await screen.findAllByRole('button', { name: 'Log Out' });
    await userEvent.click(logOut!);
    expect(auth.signOut).toHaveBeenCalledOnce();
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('says Logout failed and stays put when signing out fails', async () => {
    const router = renderLayout(authState({ signOut: vi.fn(() => Promise.reject(new Error('network'))) }));
    const [logOut] = await screen.findAllByRole('button', { name: 'Log Out' });
    await userEvent.click(logOut!);
    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('opens the member menu on narrow screens with Log Out inside it', async () => {
    renderLayout(authState());
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Member menu' });
    expect(within(menu).getByRole('link', { name: 'Book a Class' })).toHaveAttribute('href', '/my-schedule');
    expect(within(menu).getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
  });
});
