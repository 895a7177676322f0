import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  CheckoutStatus,
  CreateChargeInput,
  CreateCheckoutInput,
  CreatedCheckout,
  PaymentProvider,
  ProviderCheckout,
  ProviderCustomer,
  ProviderRefund,
  RefundInput,
} from './provider';
import { ProviderError } from './provider';

/**
 * The local test provider: used only when no SumUp key is set and Supabase is a local stack.
 * It behaves like SumUp seen from the functions (create, then get by id; statuses PENDING, PAID,
 * FAILED, EXPIRED; customers, card-saving checkouts and saved-card charges) and its "hosted
 * checkout" is the test page served by the test-checkout function through the local gateway.
 *
 * Checkouts are kept in a JSON file when one is given (the local stack's data folder), because the
 * gateway and `npm run jobs` are two processes that must see the same checkouts; in memory otherwise
 * (tests).
 */
export type TestCheckout = (CreateCheckoutInput | (CreateChargeInput & { redirectUrl?: undefined; purpose?: undefined })) & {
  id: string;
  status: CheckoutStatus;
  createdAt: number;
  cardToken?: string | null;
  refunds: TestRefund[];
};
export type TestRefund = { reference: string; amount: number };

/** Same lifetime as a SumUp hosted checkout session. */
export const TEST_CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

/**
 * The two test cards of the card-saving page. One always pays; the other pays now (the card is
 * saved and the first charge made while the member is there) and declines every charge made more
 * than an hour after it was saved, i.e. every renewal.
 */
export const TEST_CARDS = {
  alwaysPays: { label: 'the card that always pays', tokenPrefix: 'test_pays_' },
  declinesLater: { label: 'the card that declines later charges', tokenPrefix: 'test_declines_later_' },
} as const;
export type TestCard = keyof typeof TEST_CARDS;
const DECLINES_AFTER_MS = 60 * 60 * 1000;

export function testCardToken(card: TestCard, savedAt: number): string {
  const suffix = randomUUID().slice(0, 8);
  return card === 'alwaysPays'
    ? `${TEST_CARDS.alwaysPays.tokenPrefix}${suffix}`
    : `${TEST_CARDS.declinesLater.tokenPrefix}${savedAt}_${suffix}`;
}

/** What a saved test card does with a charge at `now`. */
export function testCardCharge(token: string, now: number): 'PAID' | 'FAILED' {
  if (token.startsWith(TEST_CARDS.alwaysPays.tokenPrefix)) return 'PAID';
  const declines = new RegExp(`^${TEST_CARDS.declinesLater.tokenPrefix}(\\d+)_`).exec(token);
  if (declines) return now - Number(declines[1]) > DECLINES_AFTER_MS ? 'FAILED' : 'PAID';
  return 'FAILED';
}

type Store = { load(): Map<string, TestCheckout>; save(checkouts: Map<string, TestCheckout>): void };

const MEMORY_KEY = Symbol.for('studio.payments.test-checkouts');

function memoryStore(): Store {
  const holder = globalThis as typeof globalThis & { [MEMORY_KEY]?: Map<string, TestCheckout> };
  holder[MEMORY_KEY] ??= new Map();
  const checkouts = holder[MEMORY_KEY];
  return { load: () => checkouts, save: () => undefined };
}

function fileStore(file: string): Store {
  return {
    load() {
      if (!existsSync(file)) return new Map();
      try {
        return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, TestCheckout>));
      } catch {
        return new Map();
      }
    },
    save(checkouts) {
      mkdirSync(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(Object.fromEntries(checkouts)));
      renameSync(temp, file);
    },
  };
}

const storeFor = (file: string | undefined): Store => (file ? fileStore(file) : memoryStore());

function current(checkout: TestCheckout, now: number): TestCheckout {
  if (checkout.status === 'PENDING' && checkout.redirectUrl && now - checkout.createdAt > TEST_CHECKOUT_LIFETIME_MS) {
    checkout.status = 'EXPIRED';
  }
  return checkout;
}

function view(checkout: TestCheckout): ProviderCheckout {
  const { id, status, amount, currency, reference } = checkout;
  return { id, status, amount, currency, reference, customerId: checkout.customerId ?? null, cardToken: checkout.cardToken ?? null };
}

export type TestProviderOptions = {
  /** Where checkouts are kept (shared by processes); memory when absent. */
  storeFile?: string;
  /** The provider's clock: `npm run jobs -- --at` runs it at that time. */
  now?: () => number;
};

export class TestProvider implements PaymentProvider {
  readonly name = 'test';
  private readonly store: Store;
  private readonly now: () => number;

  /** @param functionsBaseUrl where the gateway serves functions, e.g. http://127.0.0.1:54321/.netlify/functions */
  constructor(
    private readonly functionsBaseUrl: string,
    options: TestProviderOptions = {},
  ) {
    this.store = storeFor(options.storeFile);
    this.now = options.now ?? Date.now;
  }

  private add(input: CreateCheckoutInput | CreateChargeInput): Promise<string> {
    const checkouts = this.store.load();
    for (const existing of checkouts.values()) {
      if (existing.reference === input.reference) {
        return Promise.reject(new ProviderError('duplicate', `A test checkout already exists for ${input.reference}`, 409));
      }
    }
    const id = randomUUID();
    checkouts.set(id, { ...input, id, status: 'PENDING', createdAt: this.now(), refunds: [] });
    this.store.save(checkouts);
    return Promise.resolve(id);
  }

  async createCheckout(input: CreateCheckoutInput): Promise<CreatedCheckout> {
    const id = await this.add(input);
    return { id, url: `${this.functionsBaseUrl}/test-checkout?id=${encodeURIComponent(id)}` };
  }

  createChargeCheckout(input: CreateChargeInput): Promise<string> {
    return this.add(input);
  }

  getCheckout(id: string): Promise<ProviderCheckout> {
    const checkout = findTestCheckout(id, this.now(), this.store);
    if (!checkout) return Promise.reject(new ProviderError('not_found', `No test checkout ${id}`, 404));
    return Promise.resolve(view(checkout));
  }

  findCheckoutByReference(reference: string): Promise<ProviderCheckout | null> {
    const found = [...this.store.load().values()].find((c) => c.reference === reference);
    return Promise.resolve(found ? view(current(found, this.now())) : null);
  }

  ensureCustomer(customer: ProviderCustomer): Promise<void> {
    if (!customer.customerId) return Promise.reject(new ProviderError('invalid_request', 'customer_id is required', 400));
    return Promise.resolve();
  }

  payWithSavedCard(checkoutId: string, card: { customerId: string; token: string }): Promise<void> {
    const checkouts = this.store.load();
    const checkout = checkouts.get(checkoutId);
    if (!checkout) return Promise.reject(new ProviderError('not_found', `No test checkout ${checkoutId}`, 404));
    if (checkout.customerId !== card.customerId) {
      return Promise.reject(new ProviderError('invalid_request', 'The card does not belong to this checkout’s customer', 400));
    }
    // A paid checkout is never paid again (SumUp answers an error; the caller reads the checkout).
    if (checkout.status !== 'PAID') checkout.status = testCardCharge(card.token, this.now());
    this.store.save(checkouts);
    return Promise.resolve();
  }

  /** As SumUp: only a paid checkout, never more than was paid in all (in pence, no float drift). */
  refundPayment(input: RefundInput): Promise<ProviderRefund> {
    const checkouts = this.store.load();
    const checkout = checkouts.get(input.checkoutId);
    if (!checkout) return Promise.reject(new ProviderError('not_found', `No test checkout ${input.checkoutId}`, 404));
    checkout.refunds ??= [];
    if (checkout.status !== 'PAID')
      return Promise.reject(new ProviderError('invalid_request', `Test checkout ${checkout.id} is ${checkout.status}`, 409));
    const pence = (pounds: number) => Math.round(pounds * 100);
    const refunded = checkout.refunds.reduce((sum, r) => sum + pence(r.amount), 0);
    if (pence(input.amount) <= 0 || refunded + pence(input.amount) > pence(checkout.amount)) {
      return Promise.reject(
        new ProviderError('invalid_request', `Refund of ${input.amount} exceeds what test checkout ${checkout.id} has left`, 400),
      );
    }
    const refund = { reference: `test-refund-${randomUUID()}`, amount: input.amount };
    checkout.refunds.push(refund);
    this.store.save(checkouts);
    return Promise.resolve({ reference: refund.reference });
  }
}

/** The test provider's store as the active provider uses it (see select-provider). */
export function testProviderStore(storeFile: string | undefined): Store {
  return storeFor(storeFile);
}

export function findTestCheckout(id: string, now = Date.now(), store: Store = memoryStore()): TestCheckout | null {
  const checkout = store.load().get(id);
  return checkout ? current(checkout, now) : null;
}

/**
 * The test page's choice: only a pending checkout changes. A card-saving checkout paid with a test
 * card gets that card's token. Returns the checkout after.
 */
export function settleTestCheckout(
  id: string,
  outcome: 'PAID' | 'FAILED',
  store: Store = memoryStore(),
  card: TestCard = 'alwaysPays',
): TestCheckout | null {
  const checkouts = store.load();
  const checkout = checkouts.get(id);
  if (!checkout) return null;
  current(checkout, Date.now());
  if (checkout.status === 'PENDING') {
    checkout.status = outcome;
    if (outcome === 'PAID' && checkout.purpose === 'SETUP_RECURRING_PAYMENT') checkout.cardToken = testCardToken(card, Date.now());
    store.save(checkouts);
  }
  return checkout;
}
