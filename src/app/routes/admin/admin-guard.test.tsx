import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { restGet, signInAs } from '@/testing/supabase-mocks';
import { logoutHandler, membersHandler, signInAsAdmin } from '@/testing/admin-fixtures';

describe('admin guard', () => {
  it.each(['/admin', '/admin/bookings', '/admin/members', '/admin/analytics', '/admin/generate-classes'])(
    'sends a signed-out visitor of %s to /admin/login with "Please sign in again"',
    async (url) => {
      const { router } = renderApp(url);
      expect(await screen.findByText('Please sign in again')).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
      expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    },
  );

  it.each(['/admin', '/admin/analytics', '/admin/generate-classes'])(
    'refuses a member who is not an admin at %s: "Access denied", then home',
    async (url) => {
      const { member } = signInAs({ email: 'sam@studio.test', is_admin: false });
      // Any admin data call would be unhandled and fail the test: the guard must stop before them.
      server.use(membersHandler(member));
      const { router } = renderApp(url);
      expect(await screen.findByText('Access denied')).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: /Management|Analytics|Generate/ })).not.toBeInTheDocument();
    },
  );

  it('renders nothing of the admin shell while the check is running', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => []),
      restGet('studio_closures', () => []),
    );
    renderApp('/admin');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Admin' })).toBeInTheDocument();
  });

  it('lets an admin in, and Logout signs out, clears the stored flags and returns to the login', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => []),
      restGet('studio_closures', () => []),
      logoutHandler,
    );
    localStorage.setItem('adminAuthenticated', 'true');
    localStorage.setItem('ffEmail', 'admin@studio.test');
    const { router } = renderApp('/admin');
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    for (const name of ['Classes', 'Bookings', 'Members', 'Analytics', 'Generate']) {
      expect(nav).toContainElement(screen.getByRole('link', { name }));
    }
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(screen.queryByText('Please sign in again')).not.toBeInTheDocument();
    expect(localStorage.getItem('adminAuthenticated')).toBeNull();
    expect(localStorage.getItem('ffEmail')).toBeNull();
  });

  it('opens and closes the phone menu with its toggle', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => []),
      restGet('studio_closures', () => []),
    );
    renderApp('/admin');
    const toggle = await screen.findByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup().click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  });
});
