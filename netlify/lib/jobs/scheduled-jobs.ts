import { compositeRow, compositeRows } from '../../../src/lib/composite-row';
import type { ChargeOutcome } from '../../../src/lib/functions-contract';
import type { Db } from '../supabase-server';
import { chargeMembership, type MembershipChargeSetFields } from '../payments/membership-charge';
import type { PaymentProvider } from '../payments/provider';
import { deliverPushes } from '../push/deliver-pushes';
import { loopbackPushesAllowed } from '../push/push-endpoint';
import { readPushEnv } from '../push/push-env';
import { postgrestPushStore } from '../push/push-store';
import { deliverTexts } from '../sms/deliver-texts';
import { readSmsEnv } from '../sms/sms-env';
import { twilioProvider } from '../sms/sms-provider';
import { postgrestTextStore } from '../sms/text-store';
import { ConfigError } from '../server-env';
import { enqueueClassReminders, REMINDER_WINDOW_HOURS } from './class-reminders';
import { checkSystemHealth, recordRun } from './job-runs';

/**
 * Every time-based job of the studio, each a plain function of (db, provider, now): the database
 * decides what is due as of `now` and each step is idempotent, so running them twice at the same
 * time does nothing the second time. The scheduled function runs them in production
 * (netlify/functions/run-jobs.ts); `npm run jobs -- --at <ISO time>` runs them locally.
 */
export type JobReport = { job: string; did: string; details: string[] };
export type Job = (db: Db, provider: PaymentProvider, now: Date, webhookUrl?: string) => Promise<JobReport>;

/** The jobs that answer how many rows they changed as of `now`. */
type CountingJob =
  | 'release_expired_holds_at'
  | 'expire_trials'
  | 'end_finished_memberships'
  | 'enqueue_membership_reminders'
  | 'enqueue_credit_expiry_reminders'
  | 'enqueue_win_back_emails'
  | 'enqueue_push_reminders_at'
  | 'send_class_changes_at'
  | 'send_review_requests_at'
  | 'send_announcements_at'
  | 'send_gift_vouchers_at'
  | 'mark_no_shows'
  | 'generate_one_to_one_slots'
  | 'purge_job_runs';

async function count(db: Db, fn: CountingJob, now: Date): Promise<number> {
  const { data, error } = await db.rpc(fn, { p_now: now.toISOString() });
  if (error) throw new Error(`${fn} failed: ${error.message}`);
  return data;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const releaseExpiredHolds: Job = async (db, _provider, now) => {
  const released = await count(db, 'release_expired_holds_at', now);
  return { job: 'payment holds', did: `released ${plural(released, 'expired hold')}`, details: [] };
};

export const expireTrials: Job = async (db, _provider, now) => {
  const ended = await count(db, 'expire_trials', now);
  return { job: 'trials', did: `ended ${plural(ended, 'free trial')}`, details: [] };
};

export const endFinishedMemberships: Job = async (db, _provider, now) => {
  const ended = await count(db, 'end_finished_memberships', now);
  return { job: 'cancelled memberships', did: `ended ${plural(ended, 'membership')} at their period end`, details: [] };
};

/** Renewals and retries due as of `now`, each charged once with the saved card. */
export const chargeRenewals: Job = async (db, provider, now, webhookUrl = '') => {
  const { data, error } = await db.rpc('claim_due_renewals', { p_now: now.toISOString() });
  if (error) throw new Error(`claim_due_renewals failed: ${error.message}`);
  const charges = compositeRows<'membership_charge', MembershipChargeSetFields>(data);
  const tally: Record<ChargeOutcome, number> = { paid: 0, declined: 0, no_card: 0, pending: 0, error: 0 };
  const details: string[] = [];
  for (const charge of charges) {
    const result = await chargeMembership(db, provider, charge, now, webhookUrl);
    tally[result.outcome] += 1;
    details.push(
      `${charge.checkout_reference} £${Number(charge.amount).toFixed(2)} attempt ${charge.attempt}: ${result.outcome}${result.detail && result.outcome !== 'declined' ? ` (${result.detail})` : ''}`,
    );
  }
  const parts = (Object.keys(tally) as ChargeOutcome[]).filter((k) => tally[k] > 0).map((k) => `${tally[k]} ${k.replace('_', ' ')}`);
  return {
    job: 'renewals',
    did: charges.length ? `charged ${plural(charges.length, 'renewal')}: ${parts.join(', ')}` : 'nothing due',
    details,
  };
};

export const sendMembershipReminders: Job = async (db, _provider, now) => {
  const queued = await count(db, 'enqueue_membership_reminders', now);
  return { job: 'reminders', did: `queued ${plural(queued, 'renewal or trial reminder')}`, details: [] };
};

export const sendCreditExpiryReminders: Job = async (db, _provider, now) => {
  const queued = await count(db, 'enqueue_credit_expiry_reminders', now);
  return { job: 'credits', did: `queued ${plural(queued, 'expiry reminder')} for credits ending within 7 days`, details: [] };
};

export const sendWinBackEmails: Job = async (db, _provider, now) => {
  const queued = await count(db, 'enqueue_win_back_emails', now);
  return { job: 'come-back emails', did: `queued ${plural(queued, 'come-back email')} after ended trials and memberships`, details: [] };
};

/** Bookings nobody checked in 30 minutes after their class started become no-shows (decision 0022). */
export const markNoShows: Job = async (db, _provider, now) => {
  const marked = await count(db, 'mark_no_shows', now);
  return { job: 'no-shows', did: `marked ${plural(marked, 'booking')} not checked in 30 minutes after the start`, details: [] };
};

/** The coming weeks' One-to-One sessions from the trainers' published availability. */
export const generateOneToOneSlots: Job = async (db, _provider, now) => {
  const created = await count(db, 'generate_one_to_one_slots', now);
  return { job: 'personal training', did: `created ${plural(created, 'One-to-One session')} from trainers' availability`, details: [] };
};

export const sendClassReminders: Job = async (db, _provider, now) => {
  const queued = await enqueueClassReminders(db, now);
  return {
    job: 'class reminders',
    did: `queued ${plural(queued, 'reminder')} for classes in the next ${REMINDER_WINDOW_HOURS} hours`,
    details: [],
  };
};

/** Pushes before an early class, each queued for the member's chosen time before it (decision 0023). */
export const sendPushReminders: Job = async (db, _provider, now) => {
  const queued = await count(db, 'enqueue_push_reminders_at', now);
  return { job: 'push reminders', did: `queued ${plural(queued, 'push reminder')} before early classes`, details: [] };
};

/**
 * Class edits left alone for the quiet period, told to the booked and waitlisted (decision 0042;
 * the class-changes function runs it every minute).
 */
export async function tellClassChanges(db: Db, now: Date): Promise<JobReport> {
  const told = await count(db, 'send_class_changes_at', now);
  return { job: 'class changes', did: `told ${plural(told, 'member')} of changed classes`, details: [] };
}

export const sendClassChanges: Job = (db, _provider, now) => tellClassChanges(db, now);

/** One review request to each member whose Nth attended class this is (decision 0088; off until the studio sets N). */
export const sendReviewRequests: Job = async (db, _provider, now) => {
  const queued = await count(db, 'send_review_requests_at', now);
  return { job: 'review requests', did: `queued ${plural(queued, 'review request')}`, details: [] };
};

/**
 * Announcements whose send time has come, each queued once for its segment (decision 0090; the
 * send-announcements function runs it every minute).
 */
export async function queueDueAnnouncements(db: Db, now: Date): Promise<JobReport> {
  const queued = await count(db, 'send_announcements_at', now);
  return { job: 'announcements', did: `queued for ${plural(queued, 'member')}`, details: [] };
}

export const sendAnnouncements: Job = (db, _provider, now) => queueDueAnnouncements(db, now);

/** Gift vouchers whose delivery date has come, each emailed to its recipient once (decision 0100). */
export const sendGiftVouchers: Job = async (db, _provider, now) => {
  const sent = await count(db, 'send_gift_vouchers_at', now);
  return { job: 'gift vouchers', did: `emailed ${plural(sent, 'gift voucher')} due today`, details: [] };
};

/**
 * The pushes due as of `now` (deliver-pushes sends them every minute; here a run of the jobs at a
 * chosen time also sends the reminders that time brings).
 */
export const sendDuePushes: Job = async (db, _provider, now) => {
  let vapid;
  try {
    vapid = readPushEnv();
  } catch (error) {
    if (error instanceof ConfigError) return { job: 'pushes', did: 'not sent: no VAPID keys set', details: [] };
    throw error;
  }
  const r = await deliverPushes({ store: postgrestPushStore(db), vapid, now, allowLoopback: loopbackPushesAllowed(db.url) });
  return { job: 'pushes', did: `sent ${r.sent}, retrying ${r.retrying}, failed ${r.failed}, devices gone ${r.gone}`, details: [] };
};

/**
 * The texts due as of `now` (deliver-texts sends them every minute; here a run of the jobs at a
 * chosen time also sends the reminders that run queued, after the quiet hours of that time).
 */
export const sendDueTexts: Job = async (db, _provider, now) => {
  let sms;
  try {
    sms = readSmsEnv();
  } catch (error) {
    if (error instanceof ConfigError) return { job: 'texts', did: 'not sent: no Twilio keys set', details: [] };
    throw error;
  }
  const r = await deliverTexts({ store: postgrestTextStore(db), provider: twilioProvider(sms), now });
  return { job: 'texts', did: `sent ${r.sent}, retrying ${r.retrying}, failed ${r.failed}`, details: [] };
};

/** Job runs older than a month go (the system-health log is about now, not history). */
export const purgeOldJobRuns: Job = async (db, _provider, now) => {
  const removed = await count(db, 'purge_job_runs', now);
  return { job: 'housekeeping', did: `removed ${plural(removed, 'job run')} older than 30 days`, details: [] };
};

/** Data kept only for a while (decision 0047): guest signatures, Contact Us messages, old audit events. */
export const applyDataRetention: Job = async (db, _provider, now) => {
  const { data, error } = await db.rpc('apply_data_retention', { p_now: now.toISOString() });
  if (error) throw new Error(`apply_data_retention failed: ${error.message}`);
  const removed = compositeRow<'retention_result', 'guest_signatures' | 'contact_messages' | 'audit_events'>(data);
  return {
    job: 'retention',
    did: `removed ${plural(removed.guest_signatures, 'guest signature')}, ${plural(removed.contact_messages, 'contact message')}, ${plural(removed.audit_events, 'audit event')} past their period`,
    details: [],
  };
};

/** In order: holds and trials first (they free spots and change tiers), then memberships, then class reminders. */
export const SCHEDULED_JOBS: readonly Job[] = [
  releaseExpiredHolds,
  expireTrials,
  endFinishedMemberships,
  chargeRenewals,
  sendMembershipReminders,
  sendCreditExpiryReminders,
  sendWinBackEmails,
  markNoShows,
  generateOneToOneSlots,
  sendClassReminders,
  sendPushReminders,
  sendClassChanges,
  sendReviewRequests,
  sendAnnouncements,
  sendGiftVouchers,
  sendDuePushes,
  sendDueTexts,
  purgeOldJobRuns,
  applyDataRetention,
];

/**
 * Every job in order, recorded as one 'hourly' run (decision 0046); then the watchdog, once the run
 * is recorded, so it judges this run too (and still runs when a job failed: two failures running
 * open an alert). A failing job stops the run and is rethrown, as before.
 */
export async function runScheduledJobs(db: Db, provider: PaymentProvider, now: Date, webhookUrl = ''): Promise<JobReport[]> {
  const reports: JobReport[] = [];
  let failure: Error | null = null;
  try {
    await recordRun(
      db,
      'hourly',
      now,
      async () => {
        for (const job of SCHEDULED_JOBS) reports.push(await job(db, provider, now, webhookUrl));
      },
      () => formatReports(reports),
    );
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  try {
    const open = await checkSystemHealth(db, now);
    reports.push({ job: 'system health', did: open ? `${plural(open, 'alert')} open` : 'no alerts open', details: [] });
  } catch (error) {
    // The jobs' own failure is the one to report; the watchdog's is logged beside it.
    if (!failure) throw error;
    console.error('[run-jobs] the watchdog failed too', error);
  }
  if (failure) throw failure;
  return reports;
}

export function formatReports(reports: readonly JobReport[]): string {
  return reports.map((r) => [`${r.job}: ${r.did}`, ...r.details.map((d) => `  ${d}`)].join('\n')).join('\n');
}
