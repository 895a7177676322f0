import { asServiceRole } from '../../local/db/as-user.ts';
import type { SqlDatabase } from '../../local/db/open-database.ts';
import { rpc, type TestUser } from './fixtures.ts';
import { claim, type Charge } from './membership-steps.ts';

/**
 * The steps the Direct Debit functions take (decision 0076), as service-role RPC calls: GoCardless's
 * part (Billing Request ids, payment ids, webhook events) is played by the test.
 */
export type Setup = {
  payment_reference: string | null;
  setup_reference: string;
  flow_url: string | null;
  amount: number;
  first_charge_date: string;
};
export type Collection = {
  method: string;
  collection_id: string | null;
  provider_mandate_id: string | null;
  charge_date: string | null;
  amount: number | null;
};
export type EventResult = { outcome: string; charge_reference: string | null };

const service = <T>(db: SqlDatabase, call: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));

export const startDirectDebit = (db: SqlDatabase, member: TestUser, plan: string | null, at: Date) =>
  service<Setup>(db, 'public.start_direct_debit($1, $2, $3)', [member.memberId, plan, at.toISOString()]);

export const setFlow = (db: SqlDatabase, setup: Setup, billingRequestId: string) =>
  service<string>(db, 'public.set_direct_debit_flow($1, $2, $3)', [
    setup.setup_reference,
    billingRequestId,
    `https://pay.example.test/flow/${billingRequestId}`,
  ]);

let eventNumber = 0;
/** A webhook event as GoCardless sends it; a fresh id unless one is given (a replay). */
export const event = (
  db: SqlDatabase,
  resource: 'billing_requests' | 'mandates' | 'payments' | 'refunds',
  action: string,
  links: Record<string, string>,
  at: Date,
  options: { id?: string; details?: Record<string, string> } = {},
) =>
  service<EventResult>(db, 'public.apply_direct_debit_event($1, $2, $3, $4, $5, $6)', [
    options.id ?? `EV${String(++eventNumber).padStart(6, '0')}${Math.random().toString(36).slice(2, 8)}`,
    resource,
    action,
    JSON.stringify(links),
    JSON.stringify(options.details ?? {}),
    at.toISOString(),
  ]);

export const collectionFor = (db: SqlDatabase, charge: Pick<Charge, 'checkout_reference' | 'attempt'>, at: Date) =>
  service<Collection>(db, 'public.direct_debit_collection_for($1, $2, $3)', [charge.checkout_reference, charge.attempt, at.toISOString()]);

export const recordSubmission = (db: SqlDatabase, collection: Collection, paymentId: string, at: Date) =>
  service<string>(db, 'public.record_direct_debit_submission($1, $2, $3, $4)', [
    collection.collection_id,
    paymentId,
    collection.charge_date,
    at.toISOString(),
  ]);

/**
 * A member buys `plan` by Direct Debit: the setup, its Billing Request (`BRQ-<n>`), the fulfilled
 * event with mandate `MD-<n>`, then the first month claimed and submitted as payment `PM-<n>-1`.
 */
export async function setUpDirectDebit(db: SqlDatabase, member: TestUser, at: Date, n: string, plan = 'standard') {
  const setup = await startDirectDebit(db, member, plan, at);
  await setFlow(db, setup, `BRQ-${n}`);
  const fulfilled = await event(
    db,
    'billing_requests',
    'fulfilled',
    { billing_request: `BRQ-${n}`, mandate_request_mandate: `MD-${n}` },
    at,
  );
  const charge = (await claim(db, fulfilled.charge_reference!, at))!;
  const collection = await collectionFor(db, charge, at);
  await recordSubmission(db, collection, `PM-${n}-1`, at);
  return { setup, fulfilled, charge, collection };
}
