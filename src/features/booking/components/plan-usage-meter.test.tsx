import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { PlanUsageMeter } from './plan-usage-meter';

/** The meter loads `my_plan_usage` itself: what book_class counts (late cancellations included). */
function setup(
  usage: { allowance: number | null; used: number; bookings?: number } | Response,
  tier: 'standard' | 'premium' | 'payg' = 'standard',
) {
  const { member } = signInAs({ membership_tier: tier });
  const reads = { count: 0 };
  server.use(
    memberHandler(member),
    rpc('my_plan_usage', () => {
      reads.count += 1;
      if (usage instanceof Response) return usage;
      const remaining = usage.allowance === null ? null : Math.max(usage.allowance - usage.used, 0);
      return { month_start: '2026-11-01T00:00:00Z', bookings: usage.used, late_cancellations: 0, remaining, ...usage };
    }),
  );
  renderWithProviders(<PlanUsageMeter />, '/membership');
  return reads;
}

describe('PlanUsageMeter (My Membership)', () => {
  it('warns from 80% with the spec message and says "1 class left" in the singular', async () => {
    const reads = setup({ allowance: 12, used: 11 });
    const bar = await screen.findByRole('progressbar', { name: 'Classes used this month' });
    expect(bar).toHaveAttribute('data-level', 'warning');
    expect(screen.getByText("You're approaching your monthly limit.")).toBeInTheDocument();
    expect(screen.getByText('1 class left this month')).toBeInTheDocument();
    expect(reads.count).toBe(1);
  });

  it('says the limit is reached at 12 of 12, not approaching it', async () => {
    setup({ allowance: 12, used: 12 });
    expect(await screen.findByRole('progressbar')).toHaveAttribute('data-level', 'warning');
    expect(screen.getByText("You've reached your monthly limit.")).toBeInTheDocument();
    expect(screen.queryByText("You're approaching your monthly limit.")).not.toBeInTheDocument();
  });

  it('turns red only once usage exceeds the plan (after a downgrade), with the spec message', async () => {
    setup({ allowance: 12, used: 13 });
    expect(await screen.findByRole('progressbar')).toHaveAttribute('data-level', 'over');
    expect(screen.getByText("You've exceeded your monthly limit. Consider upgrading your plan.")).toBeInTheDocument();
    expect(screen.getByText('0 classes left this month')).toBeInTheDocument();
  });

  it('shows pay-as-you-go as the month’s bookings, with no bar', async () => {
    setup({ allowance: null, used: 0, bookings: 1 }, 'payg');
    expect(await screen.findByText(/class booked this month · pay per class, no monthly limit/)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says when the usage cannot be loaded', async () => {
    setup(postgrestError({ code: 'XX000', message: 'boom' }, 500));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load your plan usage');
  });
});
