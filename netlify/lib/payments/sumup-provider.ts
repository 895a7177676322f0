import { ConfigError } from '../server-env';
import { PROVIDER_TIMEOUT_MS } from './payment-rules';
import {
  ProviderError,
  type CheckoutStatus,
  type CreateCheckoutInput,
  type CreatedCheckout,
  type PaymentProvider,
  type ProviderCheckout,
  type ProviderRefund,
  type RefundInput,
} from './provider';

/**
 * SumUp's Checkouts API (https://developer.sumup.com/api/checkouts): a hosted checkout is created
 * server-side with the secret API key; SumUp posts `{ event_type, id }` to `return_url` when its
 * status changes, and that notification is only trusted after GET /v0.1/checkouts/{id}.
 * Refunds (https://developer.sumup.com/online-payments/guides/refund) go to the checkout's
 * successful transaction: POST /v0.1/me/refund/{transaction id} with the amount, answered 204.
 */
export const SUMUP_API_BASE = 'https://api.sumup.com';

const STATUSES: readonly CheckoutStatus[] = ['PENDING', 'PAID', 'FAILED', 'EXPIRED'];

type SumUpOptions = { apiKey: string; merchantCode: string; timeoutMs?: number };

export class SumUpProvider implements PaymentProvider {
  readonly name = 'sumup';
  private readonly timeoutMs: number;

  constructor(private readonly options: SumUpOptions) {
    if (!options.apiKey || !options.merchantCode) {
      throw new ConfigError('SUMUP_API_KEY and SUMUP_MERCHANT_CODE must both be set');
    }
    this.timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  }

  async createCheckout(input: CreateCheckoutInput): Promise<CreatedCheckout> {
    const body = await this.request('POST', '/v0.1/checkouts', {
      checkout_reference: input.reference,
      amount: input.amount,
      currency: input.currency,
      merchant_code: this.options.merchantCode,
      description: input.description,
      return_url: input.returnUrl,
      redirect_url: input.redirectUrl,
      hosted_checkout: { enabled: true },
    });
    const id = stringField(body, 'id');
    const url = stringField(body, 'hosted_checkout_url');
    if (!id || !url) throw new ProviderError('bad_response', 'SumUp answered without a checkout id or hosted checkout URL');
    return { id, url };
  }

  async getCheckout(id: string): Promise<ProviderCheckout> {
    const body = await this.request('GET', `/v0.1/checkouts/${encodeURIComponent(id)}`);
    const status = stringField(body, 'status') as CheckoutStatus | null;
    const amount = (body as { amount?: unknown }).amount;
    const checkoutId = stringField(body, 'id');
    if (!checkoutId || !status || !STATUSES.includes(status) || typeof amount !== 'number') {
      throw new ProviderError('bad_response', 'SumUp answered with a checkout we cannot read');
    }
    return {
      id: checkoutId,
      status,
      amount,
      currency: stringField(body, 'currency') ?? '',
      reference: stringField(body, 'checkout_reference') ?? '',
    };
  }

  async refundPayment(input: RefundInput): Promise<ProviderRefund> {
    // Nothing is refunded until the POST: an error finding the transaction is a plain refusal.
    const checkout = await this.request('GET', `/v0.1/checkouts/${encodeURIComponent(input.checkoutId)}`);
    const transactions = (checkout as { transactions?: unknown }).transactions;
    const paid = Array.isArray(transactions) ? transactions.find((t) => stringField(t, 'status') === 'SUCCESSFUL') : undefined;
    const transactionId = stringField(paid, 'id');
    if (!transactionId) throw new ProviderError('not_found', `SumUp checkout ${input.checkoutId} has no successful transaction to refund`);

    try {
      await this.request('POST', `/v0.1/me/refund/${encodeURIComponent(transactionId)}`, { amount: input.amount });
    } catch (error) {
      // A 4xx is SumUp saying no. A timeout, a 5xx or an unreadable answer leaves it unknown.
      if (error instanceof ProviderError && ['timeout', 'unavailable', 'bad_response'].includes(error.kind)) {
        throw new ProviderError('unconfirmed', error.message, error.status);
      }
      throw error;
    }
    return { reference: transactionId };
  }

  private async request(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${SUMUP_API_BASE}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.options.apiKey}`,
          Accept: 'application/json',
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ProviderError('timeout', `SumUp did not answer ${method} ${path} within ${this.timeoutMs} ms`);
      }
      throw new ProviderError('unavailable', `SumUp could not be reached: ${String(error)}`);
    }

    const text = await response.text().catch(() => '');
    if (!response.ok) throw errorFor(response.status, method, path, text);
    if (response.status === 204) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError('bad_response', `SumUp answered ${method} ${path} with non-JSON`, response.status);
    }
  }
}

function errorFor(status: number, method: string, path: string, text: string): ProviderError {
  // SumUp's error bodies carry error_code/message or a problem+json detail; keep a short excerpt
  // for the log (never the request, which holds the key in its headers).
  const detail = `SumUp ${method} ${path} answered ${status}: ${text.slice(0, 300)}`;
  if (status === 401 || status === 403) return new ProviderError('unauthorized', detail, status);
  if (status === 404) return new ProviderError('not_found', detail, status);
  if (status === 409) return new ProviderError('duplicate', detail, status);
  if (status >= 500) return new ProviderError('unavailable', detail, status);
  return new ProviderError('invalid_request', detail, status);
}

function stringField(body: unknown, key: string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : null;
}
