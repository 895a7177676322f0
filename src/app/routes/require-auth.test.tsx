import { render, screen } from '@testing-library/react';
import type { Session } from '@supabase/supabase-js';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthState } from '@/lib/auth/auth-context';
import { RequireAuth } from './require-auth';

function renderGuarded(auth: Partial<AuthState>) {
  const state: AuthState = {
    loading: false,
    session: null,
    user: null,
    member: null,
    memberLoading: false,
    refreshMember: vi.fn(() => Promise.resolve(null)),
    signOut: vi.fn(() => Promise.resolve()),
    signedOut: false,
    ...auth,
  };
  const router = createMemoryRouter(
    [
      { element: <RequireAuth />, children: [{ path: '/mybookings', element: <p>my bookings</p> }] },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/mybookings'] },
  );
  render(
    <AuthContext.Provider value={state}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
  return router;
}

describe('RequireAuth', () => {
  it('lets a signed-in member through', () => {
    renderGuarded({ session: { user: { id: 'u' } } as Session });
    expect(screen.getByText('my bookings')).toBeInTheDocument();
  });

  it('sends a visitor (or an expired session) to sign in and back here afterwards', () => {
    const router = renderGuarded({});
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/signin?redirect=%2Fmybookings');
  });

  it('sends someone who just logged out home, with no redirect left for the next person', () => {
    const router = renderGuarded({ signedOut: true });
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/');
  });
});
