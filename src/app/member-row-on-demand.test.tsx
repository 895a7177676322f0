import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getAppQueryClient } from '@/lib/app-query-client';
import { queryKeys } from '@/lib/query-keys';
import { server } from '@/testing/mocks/server';
import { renderApp, renderAppWithoutQueryClient } from '@/testing/render';
import { AUTH_URL, memberHandler, signInAs } from '@/testing/supabase-mocks';
import { RequireAuth } from './routes/require-auth';
import { RootLayout } from './routes/root-layout';

// The app as the browser starts it, without a query client handed in: the home page brings none,
// so a signed-in member's row must still be read (the session brings the client).
describe("a member's row on a page without server data", () => {
  it('is read once the session is known, and shows in the member navigation', async () => {
    const { member } = signInAs({ name: 'Grace Hopper', membership_tier: 'premium' });
    server.use(memberHandler(member));
    renderAppWithoutQueryClient('/');
    expect(await screen.findByRole('img', { name: 'Signed in as Grace Hopper' })).toHaveTextContent('GH');
    expect(getAppQueryClient()?.getQueryData(queryKeys.member.own(member.user_id!))).toBeDefined();
  });
});

describe('Log Out from a member screen', () => {
  it('lands on the home page, leaving no sign-in link back to the screen for the next person', async () => {
    const { member } = signInAs({ name: 'Grace Hopper', membership_tier: 'premium' });
    // GoTrue takes a moment to end the session: the screen renders meanwhile with it still there.
    server.use(
      memberHandler(member),
      http.post(`${AUTH_URL}/logout`, async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = renderApp('/secret', {
      routes: [
        {
          element: <RootLayout />,
          children: [
            { path: '/', element: <p>Home page</p> },
            { element: <RequireAuth />, children: [{ path: '/secret', element: <p>Member screen</p> }] },
            { path: '/signin', element: <p>Sign in</p> },
          ],
        },
      ],
    });
    expect(await screen.findByText('Member screen')).toBeInTheDocument();
    const [logOut] = await screen.findAllByRole('button', { name: 'Log Out' });
    await userEvent.click(logOut!);
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toBe('');
    expect(screen.getByText('Home page')).toBeInTheDocument();
  });
});
