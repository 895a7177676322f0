import { compositeRow } from '../../src/lib/composite-row';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { GoCardlessError, selectDirectDebit, type GoCardlessClient } from '../lib/direct-debit/gocardless';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { ProviderError } from '../lib/payments/provider';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REFUND_TEXT = {
  failed: 'Could not refund through SumUp. Please try again.',
  refused: 'SumUp refused the refund',
  unconfirmed: 'SumUp did not confirm the refund. Check the SumUp dashboard, then mark it refunded.',
  notRecorded: 'SumUp refunded the payment but the record could not be updated. Mark it refunded in a few minutes.',
} as const;

/** The same answers for a Direct Debit payment, refunded through GoCardless (decision 0103). */
export const DIRECT_DEBIT_REFUND_TEXT = {
  refused: 'GoCardless refused the refund',
  unconfirmed: 'GoCardless did not confirm the refund. Check the GoCardless dashboard, then mark it refunded.',
  notRecorded: 'GoCardless refunded the payment but the record could not be updated. Mark it refunded in a few minutes.',
  notSetUp: 'Direct Debit is not set up on this site (GOCARDLESS_ACCESS_TOKEN)',
} as const;

type Claim = { idempotencyKey: string; amount: number; paymentId: string; totalRefunded: number };

/**
 * A Direct Debit payment's refund through GoCardless's Refunds API, keyed by the refund owed's id
 * (numbered again once a refund of it failed, so a refund made again is a new one): a repeat after
 * an answer that was lost gets GoCardless's 409 naming the refund it made, which is the refund. A
 * refusal GoCardless gave is `refused`; a timeout or an outage is `unconfirmed`.
 */
async function refundByDirectDebit(client: GoCardlessClient | null, claim: Claim): Promise<{ reference: string }> {
  if (!client) throw new ProviderError('invalid_request', DIRECT_DEBIT_REFUND_TEXT.notSetUp);
  try {
    const refund = await client.createRefund({
      paymentId: claim.paymentId,
      amountPence: Math.round(claim.amount * 100),
      totalPence: Math.round(claim.totalRefunded * 100),
      idempotencyKey: claim.idempotencyKey,
    });
    return { reference: refund.id };
  } catch (e) {
    if (!(e instanceof GoCardlessError)) throw e;
    if (e.kind === 'conflict' && e.conflictingResourceId) return { reference: e.conflictingResourceId };
    const unclear = e.kind === 'timeout' || e.kind === 'unavailable' || e.kind === 'bad_response';
    throw new ProviderError(unclear ? 'unconfirmed' : 'invalid_request', e.message, e.status);
  }
}

/**
 * POST /.netlify/functions/refund-payment  { refundId }  Authorization: Bearer <admin session>
 * → 200 { refundId, refundedAt, providerRefundId, alreadyRefunded }. Pays a refund owed back
 * through the card provider (decision 0010), as the admin, so the database's admin check applies:
 * 1. begin_provider_refund claims the record; a second click while the first is out is refused
 *    (409 refund_in_progress) before anything reaches the provider, and a repeat after success
 *    answers 200 without sending again;
 * 2. the provider refunds; only its confirmation marks the record refunded (finish_provider_refund);
 *    a refusal releases the claim (502 refund_refused, the admin may retry), an unclear answer
 *    keeps it (504 refund_unconfirmed: a person checks the provider's dashboard, then marks it).
 * A payment collected by Direct Debit is refunded the same way through GoCardless (decision 0103).
 */
export default async function refundPayment(req: Request): Promise<Response> {
  return handle('refund-payment', REFUND_TEXT.failed, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { refundId } = await readRequest<'refund-payment'>(req);
    if (typeof refundId !== 'string' || !UUID.test(refundId)) {
      throw new HttpError(400, 'invalid_request', 'refundId must be a refund id');
    }
    const env = readServerEnv();
    const provider = selectProvider(env);
    const directDebit = selectDirectDebit();
    await verifyCaller(env, token);
    const db = memberDb(env, token);

    const { data, error } = await db.rpc('begin_provider_refund', { p_refund_id: refundId });
    if (error) throw rpcFailure(error, 'begin_provider_refund');
    const claim = compositeRow<'provider_refund_claim', 'refund_id' | 'already_refunded'>(data);
    if (claim.already_refunded) return json({ refundId, alreadyRefunded: true } satisfies FunctionAnswer<'refund-payment'>);
    const byDirectDebit = claim.collected_by === 'direct_debit';
    if (claim.amount === null) throw new Error('begin_provider_refund answered a claim without an amount');
    if (
      byDirectDebit
        ? !claim.direct_debit_payment_id || claim.total_refunded === null || !claim.direct_debit_idempotency_key
        : !claim.provider_checkout_id
    )
      throw new Error('begin_provider_refund answered a claim without a payment to refund');
    const text = byDirectDebit ? DIRECT_DEBIT_REFUND_TEXT : REFUND_TEXT;

    let outcome: { outcome: 'refunded'; reference: string } | { outcome: 'refused' | 'unconfirmed'; error: ProviderError };
    try {
      const refund = byDirectDebit
        ? await refundByDirectDebit(directDebit, {
            idempotencyKey: claim.direct_debit_idempotency_key!,
            amount: Number(claim.amount),
            paymentId: claim.direct_debit_payment_id!,
            totalRefunded: Number(claim.total_refunded),
          })
        : await provider.refundPayment({
            checkoutId: claim.provider_checkout_id!,
            amount: Number(claim.amount),
            currency: claim.currency ?? 'GBP',
          });
      outcome = { outcome: 'refunded', reference: refund.reference };
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      console.error(
        `[refund-payment] ${byDirectDebit ? 'gocardless' : provider.name} did not refund ${refundId} (${e.kind}): ${e.message}`,
      );
      outcome = { outcome: e.kind === 'unconfirmed' ? 'unconfirmed' : 'refused', error: e };
    }

    const { data: row, error: finishError } = await db.rpc('finish_provider_refund', {
      p_refund_id: refundId,
      p_outcome: outcome.outcome,
      p_provider_refund_id: outcome.outcome === 'refunded' ? outcome.reference : null,
      p_error: outcome.outcome === 'refunded' ? null : outcome.error.message,
    });
    if (finishError) {
      console.error(
        `[refund-payment] could not record the ${outcome.outcome} refund ${refundId}: ${finishError.code} ${finishError.message}`,
      );
      if (outcome.outcome === 'refunded') return json({ error: 'refund_not_recorded', message: text.notRecorded }, 500);
      throw new Error(`finish_provider_refund failed: ${finishError.message}`);
    }

    if (outcome.outcome === 'refused') return json({ error: 'refund_refused', message: `${text.refused}: ${outcome.error.message}` }, 502);
    if (outcome.outcome === 'unconfirmed') return json({ error: 'refund_unconfirmed', message: text.unconfirmed }, 504);
    return json({
      refundId,
      alreadyRefunded: false,
      refundedAt: row.refunded_at,
      providerRefundId: row.provider_refund_id,
    } satisfies FunctionAnswer<'refund-payment'>);
  });
}
