import { randomBytes } from 'node:crypto';
import { LOCAL_GOCARDLESS, webhookSignature } from '../../../netlify/lib/direct-debit/gocardless';

/**
 * The local stack's GoCardless (decision 0076): the parts of GoCardless's API the studio uses,
 * on loopback, so the production client (netlify/lib/direct-debit) talks to it unchanged:
 * Billing Requests with a Bacs mandate request, Billing Request Flows (their hosted page is
 * /gocardless/flow/<id>), payments under a mandate, and signed webhooks ({ events: [...] } with
 * Webhook-Signature). What takes Bacs days at GoCardless happens here when someone presses a
 * control on /gocardless: submit, confirm, pay out, fail, charge back, cancel the mandate. Refunds
 * of a confirmed or paid-out payment (POST /refunds, decision 0103) with GoCardless's checks: the
 * total_amount_confirmation must be the payment's total refunded with this one, and never more
 * than the payment; the controls pay a refund or make it fail, and return a paid one's funds
 * (GoCardless's refunds events paid, failed, funds_returned). A refund that failed or came back no
 * longer counts in the payment's amount_refunded, so the studio can refund it again.
 */
export type ApiAnswer = { status: number; body: unknown };

type Links = Record<string, string>;
export type LocalMandate = {
  id: string;
  status: 'pending_submission' | 'submitted' | 'active' | 'cancelled' | 'failed' | 'expired';
  scheme: 'bacs';
  created_at: string;
  next_possible_charge_date: string;
  account_holder_name: string;
  account_number_ending: string;
  links: Links;
};
export type LocalPayment = {
  id: string;
  status: 'pending_submission' | 'submitted' | 'confirmed' | 'paid_out' | 'failed' | 'cancelled' | 'charged_back';
  amount: number;
  currency: 'GBP';
  charge_date: string;
  description: string | null;
  metadata: Record<string, string>;
  created_at: string;
  links: { mandate: string };
  /** Pence refunded so far (GoCardless's amount_refunded). */
  amount_refunded: number;
};
export type LocalRefund = {
  id: string;
  amount: number;
  currency: 'GBP';
  reference: string | null;
  metadata: Record<string, string>;
  created_at: string;
  status: 'created' | 'paid' | 'failed' | 'funds_returned';
  links: { payment: string; mandate: string };
};
type BillingRequest = {
  id: string;
  status: 'pending' | 'fulfilled' | 'cancelled';
  created_at: string;
  mandate_request: { scheme: 'bacs'; currency: 'GBP'; description: string | null };
  metadata: Record<string, string>;
  links: Links;
};
type Flow = {
  id: string;
  authorisation_url: string;
  redirect_uri: string | null;
  exit_uri: string | null;
  prefilled_customer: Record<string, string>;
  links: { billing_request: string };
};
export type LocalEvent = {
  id: string;
  created_at: string;
  resource_type: string;
  action: string;
  links: Links;
  details: Record<string, string>;
};
export type Delivery = { events: LocalEvent[]; status: number | null; detail: string; at: string };

const id = (prefix: string) => `${prefix}${randomBytes(7).toString('hex').toUpperCase()}`;

function error(status: number, type: string, message: string, errors: Record<string, unknown>[] = []): ApiAnswer {
  return {
    status,
    body: {
      error: {
        message,
        type,
        code: status,
        errors,
        documentation_url: 'https://developer.gocardless.com/api-reference',
        request_id: id(''),
      },
    },
  };
}

/** The working day `days` working days after `from` (weekends skipped; the fake knows no bank holidays). */
export function workingDaysAfter(from: Date, days: number): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left -= 1;
  }
  return d.toISOString().slice(0, 10);
}

/** What a payment may become from each status when a control is pressed. */
const NEXT: Record<string, LocalPayment['status'][]> = {
  pending_submission: ['submitted', 'failed', 'cancelled'],
  submitted: ['confirmed', 'failed'],
  confirmed: ['paid_out', 'charged_back'],
  paid_out: ['charged_back'],
};

export class LocalGoCardlessService {
  private readonly billingRequests = new Map<string, BillingRequest>();
  private readonly flows = new Map<string, Flow>();
  readonly mandates = new Map<string, LocalMandate>();
  readonly payments = new Map<string, LocalPayment>();
  readonly refunds = new Map<string, LocalRefund>();
  private readonly idempotency = new Map<string, string>();
  readonly deliveries: Delivery[] = [];

  constructor(
    /** The gateway's origin (the flow page's address) and where webhooks go. */
    private readonly origin: () => string,
    private readonly webhookUrl: () => string = () => `${origin()}/.netlify/functions/direct-debit-webhook`,
    private readonly secret: string = LOCAL_GOCARDLESS.webhookSecret,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One API request: method, path under /gocardless, headers and JSON body. */
  api(method: string, path: string, headers: Record<string, string | undefined>, body: unknown): ApiAnswer {
    if (headers.authorization !== `Bearer ${LOCAL_GOCARDLESS.accessToken}`) {
      return error(401, 'invalid_api_usage', 'Access token not found', [{ reason: 'access_token_not_found' }]);
    }
    if (!headers['gocardless-version']) {
      return error(400, 'invalid_api_usage', 'GoCardless-Version header is required', [{ reason: 'missing_version_header' }]);
    }
    const key = headers['idempotency-key'];
    const get = /^\/(billing_requests|mandates|payments|refunds)\/([A-Z0-9]+)$/.exec(path);
    if (method === 'GET' && get) {
      const [, kind, rid] = get;
      const found =
        kind === 'billing_requests'
          ? this.billingRequests.get(rid!)
          : kind === 'mandates'
            ? this.mandates.get(rid!)
            : kind === 'refunds'
              ? this.refunds.get(rid!)
              : this.payments.get(rid!);
      return found
        ? { status: 200, body: { [kind!]: found } }
        : error(404, 'invalid_api_usage', 'Resource not found', [{ reason: 'resource_not_found' }]);
    }
    if (method !== 'POST') return error(404, 'invalid_api_usage', 'Not found', [{ reason: 'path_not_found' }]);
    if (key && this.idempotency.has(`${path}:${key}`)) {
      return error(409, 'invalid_state', 'A resource has already been created with this idempotency key', [
        {
          reason: 'idempotent_creation_conflict',
          message: 'A resource has already been created with this idempotency key',
          links: { conflicting_resource_id: this.idempotency.get(`${path}:${key}`) },
        },
      ]);
    }
    const answer =
      path === '/billing_requests'
        ? this.createBillingRequest(body)
        : path === '/billing_request_flows'
          ? this.createFlow(body)
          : path === '/payments'
            ? this.createPayment(body)
            : path === '/refunds'
              ? this.createRefund(body)
              : error(404, 'invalid_api_usage', 'Not found', [{ reason: 'path_not_found' }]);
    if (key && answer.status === 201) {
      const made = Object.values(answer.body as Record<string, { id: string }>)[0]!;
      this.idempotency.set(`${path}:${key}`, made.id);
    }
    return answer;
  }

  private createBillingRequest(body: unknown): ApiAnswer {
    const input = (
      body as {
        billing_requests?: {
          mandate_request?: { scheme?: string; currency?: string; description?: string };
          metadata?: Record<string, string>;
        };
      }
    )?.billing_requests;
    if (!input?.mandate_request)
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'mandate_request', message: 'is required' }]);
    if (input.mandate_request.scheme !== 'bacs' || (input.mandate_request.currency ?? 'GBP') !== 'GBP') {
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'mandate_request', message: 'only Bacs in GBP here' }]);
    }
    const request: BillingRequest = {
      id: id('BRQ'),
      status: 'pending',
      created_at: this.now().toISOString(),
      mandate_request: { scheme: 'bacs', currency: 'GBP', description: input.mandate_request.description ?? null },
      metadata: input.metadata ?? {},
      links: {},
    };
    this.billingRequests.set(request.id, request);
    return { status: 201, body: { billing_requests: request } };
  }

  private createFlow(body: unknown): ApiAnswer {
    const input = (
      body as {
        billing_request_flows?: {
          redirect_uri?: string;
          exit_uri?: string;
          links?: { billing_request?: string };
          prefilled_customer?: Record<string, string>;
        };
      }
    )?.billing_request_flows;
    const request = this.billingRequests.get(input?.links?.billing_request ?? '');
    if (!request)
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'links.billing_request', message: 'does not exist' }]);
    const flowId = id('BRF');
    const flow: Flow = {
      id: flowId,
      authorisation_url: `${this.origin()}/gocardless/flow/${flowId}`,
      redirect_uri: input?.redirect_uri ?? null,
      exit_uri: input?.exit_uri ?? null,
      prefilled_customer: Object.fromEntries(Object.entries(input?.prefilled_customer ?? {}).filter(([, v]) => typeof v === 'string')),
      links: { billing_request: request.id },
    };
    this.flows.set(flowId, flow);
    return { status: 201, body: { billing_request_flows: flow } };
  }

  private createPayment(body: unknown): ApiAnswer {
    const input = (
      body as {
        payments?: {
          amount?: unknown;
          currency?: string;
          charge_date?: string;
          description?: string;
          metadata?: Record<string, string>;
          links?: { mandate?: string };
        };
      }
    )?.payments;
    const amount = input?.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) {
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'amount', message: 'must be a whole number of pence' }]);
    }
    if (input?.currency !== 'GBP')
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'currency', message: 'must be GBP' }]);
    const mandate = this.mandates.get(input.links?.mandate ?? '');
    if (!mandate) return error(422, 'validation_failed', 'Validation failed', [{ field: 'links.mandate', message: 'does not exist' }]);
    if (!['pending_submission', 'submitted', 'active'].includes(mandate.status)) {
      return error(422, 'invalid_state', 'Mandate is not active', [{ reason: 'mandate_is_inactive', message: 'Mandate is not active' }]);
    }
    const earliest = [mandate.next_possible_charge_date, workingDaysAfter(this.now(), 2)].sort().at(-1)!;
    const chargeDate = input.charge_date ?? earliest;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(chargeDate) || chargeDate < earliest) {
      return error(422, 'validation_failed', 'Validation failed', [
        { field: 'charge_date', message: `must be on or after mandate's next_possible_charge_date (${earliest})` },
      ]);
    }
    const payment: LocalPayment = {
      id: id('PM'),
      status: 'pending_submission',
      amount,
      currency: 'GBP',
      charge_date: chargeDate,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      created_at: this.now().toISOString(),
      links: { mandate: mandate.id },
      amount_refunded: 0,
    };
    this.payments.set(payment.id, payment);
    return { status: 201, body: { payments: payment } };
  }

  /** A refund of a collected payment, checked as GoCardless checks it. */
  private createRefund(body: unknown): ApiAnswer {
    const input = (
      body as {
        refunds?: {
          amount?: unknown;
          total_amount_confirmation?: unknown;
          reference?: string;
          metadata?: Record<string, string>;
          links?: { payment?: string };
        };
      }
    )?.refunds;
    const amount = input?.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) {
      return error(422, 'validation_failed', 'Validation failed', [{ field: 'amount', message: 'must be a whole number of pence' }]);
    }
    const payment = this.payments.get(input?.links?.payment ?? '');
    if (!payment) return error(422, 'validation_failed', 'Validation failed', [{ field: 'links.payment', message: 'does not exist' }]);
    if (!['confirmed', 'paid_out'].includes(payment.status)) {
      return error(422, 'invalid_state', 'Payment cannot be refunded', [
        { reason: 'refund_payment_invalid_state', message: `A ${payment.status} payment cannot be refunded` },
      ]);
    }
    const total = payment.amount_refunded + amount;
    if (input?.total_amount_confirmation !== total) {
      return error(422, 'invalid_state', 'Total amount confirmation invalid', [
        {
          reason: 'total_amount_confirmation_invalid',
          message: `total_amount_confirmation must be ${total}: the payment's refunds including this one`,
        },
      ]);
    }
    if (total > payment.amount) {
      return error(422, 'invalid_state', 'Refund amount exceeds the amount available', [
        { reason: 'available_refund_amount_insufficient', message: 'The refund would exceed the amount of the payment' },
      ]);
    }
    const refund: LocalRefund = {
      id: id('RF'),
      amount,
      currency: 'GBP',
      reference: input?.reference ?? null,
      metadata: input?.metadata ?? {},
      created_at: this.now().toISOString(),
      status: 'created',
      links: { payment: payment.id, mandate: payment.links.mandate },
    };
    payment.amount_refunded = total;
    this.refunds.set(refund.id, refund);
    return { status: 201, body: { refunds: refund } };
  }

  flow(flowId: string): { flow: Flow; request: BillingRequest } | null {
    const flow = this.flows.get(flowId);
    const request = flow ? this.billingRequests.get(flow.links.billing_request) : undefined;
    return flow && request ? { flow, request } : null;
  }

  /**
   * The member gave bank details on the flow's page: the Billing Request is fulfilled with a new
   * mandate (GoCardless's sandbox accepts sort code 200000, account 55779911). Returns the
   * events to send, or a message for the page.
   */
  fulfil(
    flowId: string,
    details: { name: string; sortCode: string; accountNumber: string },
  ): { events: LocalEvent[]; redirect: string | null } | string {
    const found = this.flow(flowId);
    if (!found) return 'This Direct Debit setup does not exist (the local stack may have been restarted).';
    if (found.request.status !== 'pending') return 'This Direct Debit setup is finished already.';
    if (!details.name.trim()) return 'Enter the account holder name.';
    if (!/^\d{6}$/.test(details.sortCode.replace(/[-\s]/g, ''))) return 'Enter a sort code of 6 digits.';
    if (!/^\d{8}$/.test(details.accountNumber.replace(/\s/g, ''))) return 'Enter an account number of 8 digits.';
    const mandate: LocalMandate = {
      id: id('MD'),
      status: 'pending_submission',
      scheme: 'bacs',
      created_at: this.now().toISOString(),
      next_possible_charge_date: workingDaysAfter(this.now(), 5),
      account_holder_name: details.name.trim(),
      account_number_ending: details.accountNumber.replace(/\s/g, '').slice(-2),
      links: { customer: id('CU'), customer_bank_account: id('BA') },
    };
    this.mandates.set(mandate.id, mandate);
    found.request.status = 'fulfilled';
    found.request.links = { ...found.request.links, mandate_request_mandate: mandate.id, customer: mandate.links.customer! };
    return {
      events: [
        this.event(
          'billing_requests',
          'fulfilled',
          { billing_request: found.request.id, mandate_request_mandate: mandate.id, customer: mandate.links.customer! },
          'billing_request_fulfilled',
        ),
        this.event('mandates', 'created', { mandate: mandate.id }, 'mandate_created'),
      ],
      redirect: found.flow.redirect_uri,
    };
  }

  /** A control on /gocardless: what Bacs would do over days. Returns the events, or why not. */
  act(kind: 'mandate' | 'payment' | 'refund', resourceId: string, action: string): LocalEvent[] | string {
    if (kind === 'refund') return this.actOnRefund(resourceId, action);
    if (kind === 'mandate') {
      const mandate = this.mandates.get(resourceId);
      if (!mandate) return 'No such mandate.';
      if (action === 'activate' && ['pending_submission', 'submitted'].includes(mandate.status)) {
        mandate.status = 'active';
        return [this.event('mandates', 'active', { mandate: mandate.id }, 'mandate_activated')];
      }
      if (action === 'cancel' && !['cancelled', 'failed', 'expired'].includes(mandate.status)) {
        mandate.status = 'cancelled';
        const events = [
          this.event(
            'mandates',
            'cancelled',
            { mandate: mandate.id },
            'bank_account_closed',
            'The customer cancelled the Direct Debit at their bank.',
          ),
        ];
        // GoCardless cancels the mandate's payments that were not submitted yet.
        for (const payment of this.payments.values()) {
          if (payment.links.mandate === mandate.id && payment.status === 'pending_submission') {
            payment.status = 'cancelled';
            events.push(
              this.event(
                'payments',
                'cancelled',
                { payment: payment.id, mandate: mandate.id },
                'mandate_cancelled',
                'The mandate was cancelled.',
              ),
            );
          }
        }
        return events;
      }
      return `The mandate is ${mandate.status}: it cannot ${action}.`;
    }
    const payment = this.payments.get(resourceId);
    if (!payment) return 'No such payment.';
    const targets: Record<string, LocalPayment['status'] | undefined> = {
      submit: 'submitted',
      confirm: 'confirmed',
      pay_out: 'paid_out',
      fail: 'failed',
      charge_back: 'charged_back',
    };
    const target = targets[action];
    if (!target || !(NEXT[payment.status] ?? []).includes(target))
      return `The payment is ${payment.status}: it cannot ${action.replace('_', ' ')}.`;
    payment.status = target;
    const cause = target === 'failed' ? 'insufficient_funds' : target === 'charged_back' ? 'authorisation_disputed' : `payment_${target}`;
    const description =
      target === 'failed'
        ? "The customer's account had insufficient funds to make this payment."
        : target === 'charged_back'
          ? 'The customer asked their bank to refund this payment under the Direct Debit Guarantee.'
          : `The payment has been ${target.replace('_', ' ')}.`;
    return [this.event('payments', target, { payment: payment.id, mandate: payment.links.mandate }, cause, description)];
  }

  /** A refund is paid to the customer, or fails; a paid one's funds can come back. */
  private actOnRefund(refundId: string, action: string): LocalEvent[] | string {
    const refund = this.refunds.get(refundId);
    if (!refund) return 'No such refund.';
    const moves: Record<string, { from: LocalRefund['status']; to: LocalRefund['status']; cause: string; description: string }> = {
      pay: { from: 'created', to: 'paid', cause: 'refund_paid', description: 'The refund has been paid to the customer.' },
      fail: {
        from: 'created',
        to: 'failed',
        cause: 'refund_failed',
        description: "The refund could not be paid to the customer's bank account.",
      },
      return_funds: {
        from: 'paid',
        to: 'funds_returned',
        cause: 'funds_returned',
        description: "The customer's bank returned the refund.",
      },
    };
    const move = moves[action];
    if (!move || refund.status !== move.from) return `The refund is ${refund.status}: it cannot ${action.replace('_', ' ')}.`;
    refund.status = move.to;
    const payment = this.payments.get(refund.links.payment);
    // Money that did not reach the customer is refundable again.
    if (payment && move.to !== 'paid') payment.amount_refunded -= refund.amount;
    return [this.event('refunds', move.to, { refund: refund.id, ...refund.links }, move.cause, move.description)];
  }

  private event(resourceType: string, action: string, links: Links, cause: string, description?: string): LocalEvent {
    return {
      id: id('EV'),
      created_at: this.now().toISOString(),
      resource_type: resourceType,
      action,
      links,
      details: {
        origin: resourceType === 'mandates' && action === 'cancelled' ? 'bank' : 'gocardless',
        cause,
        description: description ?? cause.replace(/_/g, ' '),
      },
    };
  }

  /** Posts events to the webhook as GoCardless does: one body, signed. Kept for the page (and a replay). */
  async deliver(events: LocalEvent[]): Promise<Delivery> {
    const body = JSON.stringify({ events });
    const delivery: Delivery = { events, status: null, detail: '', at: this.now().toISOString() };
    try {
      const res = await fetch(this.webhookUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-signature': webhookSignature(this.secret, body),
          'user-agent': 'gocardless-webhook-service/1.1',
        },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      delivery.status = res.status;
      delivery.detail = (await res.text()).slice(0, 300);
    } catch (err) {
      delivery.detail = String(err);
    }
    this.deliveries.unshift(delivery);
    return delivery;
  }

  /** Sends a delivery's events again, unchanged (what GoCardless does when an answer was not 2xx). */
  async redeliver(index: number): Promise<Delivery | null> {
    const delivery = this.deliveries[index];
    return delivery ? this.deliver(delivery.events) : null;
  }
}
