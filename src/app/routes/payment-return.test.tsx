import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, signInAs } from '@/testing/supabase-mocks';
import { MAX_CHECKS, type PaymentStatus } from '@/features/payments/api/payment-status';
import { PAYMENT_MESSAGES as M } from '@/features/payments/lib/payment-messages';
import { PaymentReturnRoute } from './payment-return';

const REF = 'class-7d3c1b2a-0000-4000-8000-000000000001';

function payment(overrides: Partial<PaymentStatus>): PaymentStatus {
  return {
    reference: REF,
    kind: 'class',
    status: 'pending',
    amount: 10,
    currency: 'GBP',
    planSlug: null,
    planName: null,
    className: 'Breakfast Club',
    classStartTime: '2026-01-12T06:00:00Z',
    paidAt: null,
    needsRefund: false,
    ...overrides,
  };
}

/** The checkout-status function, answering each call with the next status in turn. */
function statusSequence(...answers: PaymentStatus[]) {
  const calls: { reference: unknown; authorization: string | null }[] = [];
  server.use(
    http.post('*/.netlify/functions/checkout-status', async ({ request }) => {
      const body = (await request.json()) as { reference?: unknown };
      calls.push({ reference: body.reference, authorization: request.headers.get('authorization') });
      return HttpResponse.json(answers[Math.min(calls.length - 1, answers.length - 1)]);
    }),
  );
  return calls;
}

function renderPage(url = `/payment/return?ref=${REF}`) {
  const { member, session } = signInAs({ membership_tier: 'payg', has_used_trial: true });
  server.use(memberHandler(member));
  renderWithProviders(<PaymentReturnRoute />, url);
  return session;
}

describe('PaymentReturnRoute', () => {
  it('asks the server about the payment with the member token and shows a paid class booking', async () => {
    const calls = statusSequence(payment({ status: 'paid', paidAt: '2026-01-10T10:00:00Z' }));
    const session = renderPage();
    expect(await screen.findByRole('heading', { name: M.paidTitle })).toBeInTheDocument();
    expect(screen.getByText("You're booked into Breakfast Club on Mon 12 Jan at 6:00 AM.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.toBookings })).toHaveAttribute('href', '/mybookings');
    expect(calls).toEqual([{ reference: REF, authorization: `Bearer ${session.access_token}` }]);
  });

  it('keeps asking while the payment is pending, then shows the result', async () => {
    const calls = statusSequence(payment({ status: 'pending' }), payment({ status: 'paid' }));
    renderPage();
    expect(await screen.findByRole('heading', { name: M.pendingTitle })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: M.paidTitle }, { timeout: 4_000 })).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });

  it('stops after a few checks and offers to check again', async () => {
    const calls = statusSequence(payment({ status: 'pending' }));
    renderPage();
    expect(await screen.findByRole('button', { name: M.checkAgain }, { timeout: MAX_CHECKS * 2_500 })).toBeInTheDocument();
    expect(screen.getByText(M.stillPending)).toBeInTheDocument();
    expect(calls).toHaveLength(MAX_CHECKS);
  }, 30_000);

  it('says a declined class payment released the spot', async () => {
    statusSequence(payment({ status: 'failed' }));
    renderPage();
    expect(await screen.findByRole('heading', { name: M.failedTitle })).toBeInTheDocument();
    expect(screen.getByText(`${M.failed} ${M.spotReleased}`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.toSchedule })).toHaveAttribute('href', '/schedule');
  });

  it('confirms a paid plan', async () => {
    statusSequence(
      payment({ kind: 'plan', status: 'paid', planSlug: 'standard', planName: 'Standard', className: null, classStartTime: null }),
    );
    renderPage();
    expect(await screen.findByText(M.paidPlan('Standard'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.toDashboard })).toHaveAttribute('href', '/dashboard');
  });

  it("says when the payment is not the member's or does not exist", async () => {
    server.use(http.post('*/.netlify/functions/checkout-status', () => HttpResponse.json({ error: 'payment_not_found' }, { status: 404 })));
    renderPage();
    expect(await screen.findByRole('heading', { name: M.notFound })).toBeInTheDocument();
  });
});
