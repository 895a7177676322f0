import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getAppQueryClient } from '@/lib/app-query-client';
import { queryKeys } from '@/lib/query-keys';
import { server } from '@/testing/mocks/server';
import { renderAppWithoutQueryClient } from '@/testing/render';
import { memberHandler, signInAs } from '@/testing/supabase-mocks';

// The app as the browser starts it, without a query client handed in: the home page brings none,
// so a signed-in member's row must still be read (the session brings the client).
describe("a member's row on a page without server data (issue 17)", () => {
  it('is read once the session is known, and shows in the member navigation', async () => {
    const { member } = signInAs({ name: 'Grace Hopper', membership_tier: 'premium' });
    server.use(memberHandler(member));
    renderAppWithoutQueryClient('/');
    expect(await screen.findByRole('img', { name: 'Signed in as Grace Hopper' })).toHaveTextContent('GH');
    expect(getAppQueryClient()?.getQueryData(queryKeys.member.own(member.user_id!))).toBeDefined();
  });
});
