import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError, isLoopbackUrl } from '../server-env';

/**
 * GoCardless's API (decision 0076): Bacs Direct Debit mandates through Billing Requests and their
 * hosted flow, then one payment per collection. The same client talks to GoCardless and to the
 * local stack's fake (supabase/local/gocardless), which speaks the same API.
 */
export type GoCardlessEnv = { accessToken: string; webhookSecret: string; apiUrl: string };

/** The local stack's fake GoCardless: fixed credentials, never valid at GoCardless. */
export const LOCAL_GOCARDLESS = {
  accessToken: 'sandbox_local-gocardless-access-token',
  webhookSecret: 'local-gocardless-webhook-secret',
} as const;

/** The API version every request names (GoCardless-Version). */
export const GOCARDLESS_VERSION = '2015-07-06';

/** GOCARDLESS_* from the environment, or null when Direct Debit is not offered (no access token). */
export function readGoCardlessEnv(source: Record<string, string | undefined> = process.env): GoCardlessEnv | null {
  const accessToken = source.GOCARDLESS_ACCESS_TOKEN?.trim() ?? '';
  if (!accessToken) return null;
  const webhookSecret = source.GOCARDLESS_WEBHOOK_SECRET?.trim() ?? '';
  if (!webhookSecret) throw new ConfigError('GOCARDLESS_WEBHOOK_SECRET must be set with GOCARDLESS_ACCESS_TOKEN');
  const fallback = accessToken.startsWith('live_') ? 'https://api.gocardless.com' : 'https://api-sandbox.gocardless.com';
  const apiUrl = (source.GOCARDLESS_API_URL?.trim() || fallback).replace(/\/+$/, '');
  // Plain http only to the local stack's fake on this machine.
  if (!apiUrl.startsWith('https://') && !isLoopbackUrl(apiUrl)) throw new ConfigError('GOCARDLESS_API_URL must be https');
  return { accessToken, webhookSecret, apiUrl };
}

/**
 * The GOCARDLESS_* a local stack at `gatewayUrl` gives its functions and jobs: the real account's
 * when GOCARDLESS_ACCESS_TOKEN is set in `env`, else its own fake at /gocardless.
 */
export function localGoCardlessEnv(gatewayUrl: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  if (env.GOCARDLESS_ACCESS_TOKEN?.trim()) {
    const keys = ['GOCARDLESS_ACCESS_TOKEN', 'GOCARDLESS_WEBHOOK_SECRET', 'GOCARDLESS_API_URL'] as const;
    return Object.fromEntries(keys.filter((k) => env[k]).map((k) => [k, env[k]!]));
  }
  return {
    GOCARDLESS_ACCESS_TOKEN: LOCAL_GOCARDLESS.accessToken,
    GOCARDLESS_WEBHOOK_SECRET: LOCAL_GOCARDLESS.webhookSecret,
    GOCARDLESS_API_URL: `${gatewayUrl}/gocardless`,
  };
}

/** Webhook-Signature: the hex HMAC-SHA256 of the raw body, keyed by the endpoint's secret. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function validWebhookSignature(secret: string, body: string, signature: string | null): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(webhookSignature(secret, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'));
}

/** One event of a webhook body ({ events: [...] }). */
export type GoCardlessEvent = {
  id: string;
  created_at?: string;
  resource_type: string;
  action: string;
  links: Record<string, string>;
  details?: { origin?: string; cause?: string; description?: string; reason_code?: string };
};

export type GoCardlessPaymentStatus =
  | 'pending_customer_approval'
  | 'pending_submission'
  | 'submitted'
  | 'confirmed'
  | 'paid_out'
  | 'cancelled'
  | 'customer_approval_denied'
  | 'failed'
  | 'charged_back';

export type GoCardlessPayment = {
  id: string;
  status: GoCardlessPaymentStatus;
  amount: number;
  currency: string;
  charge_date: string;
  links: { mandate: string };
  metadata?: Record<string, string>;
};

export type GoCardlessErrorKind = 'unauthorized' | 'conflict' | 'invalid' | 'not_found' | 'unavailable' | 'timeout' | 'bad_response';

export class GoCardlessError extends Error {
  constructor(
    readonly kind: GoCardlessErrorKind,
    message: string,
    readonly status?: number,
    /** idempotent_creation_conflict: the resource made by the first request with the same key. */
    readonly conflictingResourceId?: string,
  ) {
    super(message);
    this.name = 'GoCardlessError';
  }
}

type ErrorBody = {
  error?: {
    message?: string;
    type?: string;
    errors?: { reason?: string; message?: string; links?: { conflicting_resource_id?: string } }[];
  };
};

export class GoCardlessClient {
  readonly name = 'gocardless';
  private readonly timeoutMs: number;

  constructor(
    private readonly env: GoCardlessEnv,
    options: { timeoutMs?: number } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** A Billing Request for a Bacs mandate only (no payment now: the collections follow the renewals). */
  async createMandateRequest(input: { reference: string; description: string }): Promise<{ id: string }> {
    const body = await this.request<{ billing_requests: { id: string } }>('POST', '/billing_requests', {
      idempotencyKey: input.reference,
      body: {
        billing_requests: {
          mandate_request: { scheme: 'bacs', currency: 'GBP', description: input.description.slice(0, 100) },
          metadata: { setup_reference: input.reference },
        },
      },
    });
    return { id: body.billing_requests.id };
  }

  /** The hosted page where the member gives their bank details for the Billing Request. */
  async createFlow(input: {
    billingRequestId: string;
    redirectUri: string;
    exitUri: string;
    customer: { email: string; name: string | null };
  }): Promise<{ id: string; authorisationUrl: string }> {
    const [given, ...family] = (input.customer.name ?? '').trim().split(/\s+/);
    const body = await this.request<{ billing_request_flows: { id: string; authorisation_url: string } }>(
      'POST',
      '/billing_request_flows',
      {
        body: {
          billing_request_flows: {
            redirect_uri: input.redirectUri,
            exit_uri: input.exitUri,
            links: { billing_request: input.billingRequestId },
            prefilled_customer: { email: input.customer.email, given_name: given || undefined, family_name: family.join(' ') || undefined },
          },
        },
      },
    );
    return { id: body.billing_request_flows.id, authorisationUrl: body.billing_request_flows.authorisation_url };
  }

  /** A collection under a mandate; `idempotencyKey` makes a repeated request answer with the first payment. */
  async createPayment(input: {
    amountPence: number;
    chargeDate: string;
    description: string;
    mandateId: string;
    idempotencyKey: string;
  }): Promise<GoCardlessPayment> {
    const body = await this.request<{ payments: GoCardlessPayment }>('POST', '/payments', {
      idempotencyKey: input.idempotencyKey,
      body: {
        payments: {
          amount: input.amountPence,
          currency: 'GBP',
          charge_date: input.chargeDate,
          description: input.description.slice(0, 100),
          metadata: { collection: input.idempotencyKey },
          links: { mandate: input.mandateId },
        },
      },
    });
    return body.payments;
  }

  /**
   * A refund of a collected payment (GoCardless's Refunds API, decision 0103). `totalPence` is the
   * payment's total refunded once this one is (total_amount_confirmation): GoCardless refuses a
   * refund whose total it does not match, so one it already made is never made again unnoticed.
   * `idempotencyKey` (the refund owed's id) makes a repeated request answer with the first refund.
   */
  async createRefund(input: {
    paymentId: string;
    amountPence: number;
    totalPence: number;
    idempotencyKey: string;
  }): Promise<{ id: string; amount: number }> {
    const body = await this.request<{ refunds: { id: string; amount: number } }>('POST', '/refunds', {
      idempotencyKey: input.idempotencyKey,
      body: {
        refunds: {
          amount: input.amountPence,
          total_amount_confirmation: input.totalPence,
          metadata: { refund: input.idempotencyKey },
          links: { payment: input.paymentId },
        },
      },
    });
    return { id: body.refunds.id, amount: body.refunds.amount };
  }

  async getPayment(id: string): Promise<GoCardlessPayment> {
    const body = await this.request<{ payments: GoCardlessPayment }>('GET', `/payments/${encodeURIComponent(id)}`);
    return body.payments;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, options: { body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.env.accessToken}`,
      'gocardless-version': GOCARDLESS_VERSION,
      accept: 'application/json',
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let res: Response;
    try {
      res = await fetch(`${this.env.apiUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new GoCardlessError(timeout ? 'timeout' : 'unavailable', `GoCardless ${method} ${path}: ${String(error)}`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok && parsed && typeof parsed === 'object') return parsed as T;
    const error = (parsed as ErrorBody | null)?.error;
    const message = `GoCardless ${method} ${path} answered ${res.status}: ${error?.message ?? text.slice(0, 200)}`;
    if (res.ok) throw new GoCardlessError('bad_response', message, res.status);
    const conflict = error?.errors?.find((e) => e.reason === 'idempotent_creation_conflict');
    if (conflict) throw new GoCardlessError('conflict', message, res.status, conflict.links?.conflicting_resource_id);
    if (res.status === 401 || res.status === 403) throw new GoCardlessError('unauthorized', message, res.status);
    if (res.status === 404) throw new GoCardlessError('not_found', message, res.status);
    if (res.status >= 500 || res.status === 429) throw new GoCardlessError('unavailable', message, res.status);
    throw new GoCardlessError('invalid', message, res.status);
  }
}

/** The client when GOCARDLESS_ACCESS_TOKEN is set (the local stack sets its fake's), else null. */
export function selectDirectDebit(source: Record<string, string | undefined> = process.env): GoCardlessClient | null {
  const env = readGoCardlessEnv(source);
  return env ? new GoCardlessClient(env) : null;
}
