import '@/testing/match-media-polyfill';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/supabase';
import { server } from '@/testing/mocks/server';
import { renderApp, renderWithProviders } from '@/testing/render';
import { membershipHandlers } from '@/testing/membership-mocks';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { MyMembership } from '@/features/membership/components/my-membership';
import { PlanUsageMeter } from '@/features/booking/components/plan-usage-meter';

const myMembership = () => <MyMembership usage={<PlanUsageMeter variant="membership" />} />;

configure({ asyncUtilTimeout: 5000 });

function setup(member: Partial<Member>, used: number) {
  const signed = signInAs({ created_at: '2025-01-05T10:00:00Z', ...member });
  const counts: unknown[] = [];
  const allowance = member.membership_tier === 'standard' ? 12 : member.membership_tier === 'premium' ? 20 : null;
  server.use(
    memberHandler(signed.member),
    ...membershipHandlers(),
    // The server's count, the one book_class enforces.
    rpc('my_plan_usage', ({ args }) => {
      counts.push(args);
      return {
        month_start: '2026-11-01T00:00:00Z',
        allowance,
        used,
        remaining: allowance === null ? null : allowance - used,
        bookings: used,
        late_cancellations: 0,
      };
    }),
  );
  renderWithProviders(myMembership());
  return { ...signed, counts };
}

async function region() {
  return within(await screen.findByRole('region', { name: 'My Membership' }));
}

describe('My Membership', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('is not shown to visitors', async () => {
    renderWithProviders(myMembership());
    // Give the auth provider time to read the (empty) session.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: 'My Membership' })).not.toBeInTheDocument();
  });

  it('shows a standard member the plan, usage this month, no guessed renewal date, member since and Platinum', async () => {
    const { member, counts } = setup({ membership_tier: 'standard' }, 5);
    const r = await region();
    expect(await r.findByText('Standard')).toBeInTheDocument();
    expect(await r.findByRole('progressbar')).toHaveAttribute('aria-valuetext', '5 of 12 classes used');
    expect(r.getByRole('progressbar')).toHaveAttribute('data-level', 'ok');
    // No membership record, no date: the spec's "30 days from today" guess is gone.
    expect(r.getByText('Not on record yet')).toBeInTheDocument();
    expect(r.getByText('January 2025')).toBeInTheDocument();
    expect(r.getByRole('button', { name: 'Upgrade to Platinum Premium' })).toBeInTheDocument();
    expect(r.queryByRole('button', { name: 'Upgrade to Standard' })).not.toBeInTheDocument();
    expect(counts).toHaveLength(1);
    expect(member.id).toBeTruthy();
  });

  it('warns in yellow at exactly 80% (16 of 20) with the spec message', async () => {
    setup({ membership_tier: 'premium' }, 16);
    const r = await region();
    const bar = await r.findByRole('progressbar');
    expect(bar).toHaveAttribute('data-level', 'warning');
    expect(bar.firstElementChild).toHaveClass('bg-yellow-400');
    expect(r.getByText("You're approaching your monthly limit.")).toBeInTheDocument();
    expect(r.getByText("You're on our top plan. Nothing to upgrade.")).toBeInTheDocument();
    expect(r.queryByRole('button', { name: /Upgrade to/ })).not.toBeInTheDocument();
  });

  it('stays a warning at exactly the limit and turns red once used exceeds it', async () => {
    setup({ membership_tier: 'standard' }, 13);
    const r = await region();
    const bar = await r.findByRole('progressbar');
    expect(bar).toHaveAttribute('data-level', 'over');
    expect(bar.firstElementChild).toHaveClass('bg-red-500');
    expect(r.getByText("You've exceeded your monthly limit. Consider upgrading your plan.")).toBeInTheDocument();
  });

  it('shows the real renewal date when the plan has one', async () => {
    setup({ membership_tier: 'standard', plan_renews_at: '2030-03-04T12:00:00Z' }, 12);
    const r = await region();
    expect(await r.findByText('4 March 2030')).toBeInTheDocument();
    expect(r.queryByText('Not on record yet')).not.toBeInTheDocument();
    expect(await r.findByRole('progressbar')).toHaveAttribute('data-level', 'warning');
  });

  it('offers pay-as-you-go members Standard and Platinum and starts checkout for the chosen plan', async () => {
    const { session } = setup({ membership_tier: 'payg' }, 3);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const bodies: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/create-checkout', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ url: 'https://pay.example/c/1' });
      }),
    );
    const r = await region();
    expect(await r.findByText('Pay as You Go')).toBeInTheDocument();
    expect(r.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(r.getByText('No renewal: you pay per class')).toBeInTheDocument();
    expect(r.getByRole('button', { name: 'Upgrade to Platinum Premium' })).toBeInTheDocument();
    await userEvent.click(r.getByRole('button', { name: 'Upgrade to Standard' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/c/1'));
    expect(bodies).toEqual([{ planSlug: 'standard', userId: session.user.id }]);
  });

  it('alerts when checkout cannot start and lets the member try again', async () => {
    setup({ membership_tier: 'standard' }, 0);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    server.use(http.post('*/.netlify/functions/create-checkout', () => new HttpResponse('Not found', { status: 404 })));
    const r = await region();
    const button = await r.findByRole('button', { name: 'Upgrade to Platinum Premium' });
    await userEvent.click(button);
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('Could not start checkout, please try again.'));
    expect(button).toBeEnabled();
  });

  it('sits above the catalogue on /membership, whose plans members can buy', async () => {
    const signed = signInAs({ membership_tier: 'payg' });
    server.use(
      memberHandler(signed.member),
      ...membershipHandlers(),
      rpc('my_plan_usage', () => ({
        month_start: '2026-11-01T00:00:00Z',
        allowance: null,
        used: 0,
        remaining: null,
        bookings: 0,
        late_cancellations: 0,
      })),
    );
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const slugs: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/create-checkout', async ({ request }) => {
        slugs.push(((await request.json()) as { planSlug: string }).planSlug);
        return HttpResponse.json({ error: 'unavailable' }, { status: 503 });
      }),
    );
    renderApp('/membership');
    const mine = await screen.findByRole('region', { name: 'My Membership' });
    const buy = await screen.findByRole('button', { name: 'Buy Standard' });
    expect(mine.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(buy);
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('Could not start checkout, please try again.'));
    expect(slugs).toEqual(['standard']);
  });

  it('shows a Standard member their plan as current and sells only the upgrade', async () => {
    const signed = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(signed.member),
      ...membershipHandlers(),
      rpc('my_plan_usage', () => ({
        month_start: '2026-11-01T00:00:00Z',
        allowance: null,
        used: 0,
        remaining: null,
        bookings: 3,
        late_cancellations: 0,
      })),
    );
    renderApp('/membership');
    const standard = await screen.findByRole('article', { name: 'Standard' });
    expect(await within(standard).findByText('Your current plan')).toBeInTheDocument();
    expect(within(standard).queryByRole('button')).not.toBeInTheDocument();
    const platinum = screen.getByRole('article', { name: 'Platinum Premium' });
    expect(await within(platinum).findByRole('button', { name: 'Buy Platinum Premium' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy Standard' })).not.toBeInTheDocument();
  });
});
