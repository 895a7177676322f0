import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Modal } from '@/components/ui/modal';
import { formatPounds, PLANS } from '@/config/plans';
import { TrialCountdown } from '@/components/membership/trial-countdown';
import { useAuth } from '@/lib/auth/auth-context';
import { useCancelMembership } from '../api/cancel-membership';
import { useMyMembership } from '../api/get-my-membership';
import { useKeepCurrentPlan } from '../api/keep-current-plan';
import { useResumeMembership } from '../api/resume-membership';
import { startCardUpdate } from '../api/update-card';
import { MEMBERSHIP_STATUS_LABELS } from '@/lib/rules/membership-status';
import { isRunningPlan, type MyMembership } from '../lib/membership-view';
import { DowngradeButton } from './plan-change-dialogs';
import { PauseControls } from './pause-controls';
import { formatLondonDate } from '@/lib/studio-calendar';

/**
 * The membership as a subscription (decision 0009): status, the next renewal date or "Ends on …",
 * a banner with "Update card" when a renewal failed, and cancel / resume / switch to Standard.
 * Upgrades are offered where plans are (UpgradeOffers, the catalogue).
 */
export function MembershipStatusCard() {
  const { member } = useAuth();
  const membership = useMyMembership(member?.id ?? null);
  if (!member) return null;
  if (member.membership_tier === 'trial') {
    return (
      <StatusSection>
        <TrialCountdown expiresAt={member.trial_expires_at} />
        <p className="mt-1 text-slate-600">Choose a membership below to keep training after it ends.</p>
      </StatusSection>
    );
  }
  const m = membership.data;
  if (!isRunningPlan(m)) return null;
  return (
    <StatusSection>
      <RunningMembership membership={m} />
    </StatusSection>
  );
}

function StatusSection({ children }: { children: React.ReactNode }) {
  return (
    <section aria-labelledby="membership-status-heading" className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
      <Card>
        <h2 id="membership-status-heading" className="text-xl font-bold tracking-tight">
          Membership status
        </h2>
        <div className="mt-3">{children}</div>
      </Card>
    </section>
  );
}

function RunningMembership({ membership: m }: { membership: MyMembership }) {
  const planName = m.plan_slug ? PLANS[m.plan_slug].name : '';
  return (
    <div className="space-y-4">
      {m.status === 'past_due' && <PastDueBanner membership={m} />}
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Status</dt>
          <dd className="mt-1 font-semibold text-slate-900">{MEMBERSHIP_STATUS_LABELS[m.status]}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Plan</dt>
          <dd className="mt-1 font-semibold text-slate-900">
            {planName} · {formatPounds(m.price ?? 0)}/month
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
            {m.status === 'cancelled' ? 'Ends on' : 'Next renewal'}
          </dt>
          <dd className="mt-1 font-semibold text-slate-900">{formatLondonDate(m.period_end)}</dd>
        </div>
      </dl>
      {m.next_plan_slug && m.next_price !== null && (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-slate-700">
            Changes to {PLANS[m.next_plan_slug].name} ({formatPounds(m.next_price)}/month) on {formatLondonDate(m.period_end)}.
          </p>
          <KeepPlanButton planName={planName} />
        </div>
      )}
      <PauseControls memberId={null} canPause={m.status === 'active'} />
      <div className="flex flex-wrap gap-3">
        {m.status === 'cancelled' ? <ResumeButton /> : <CancelButton membership={m} />}
        {m.tier === 'premium' && m.status === 'active' && !m.next_plan_slug && <DowngradeButton membership={m} />}
      </div>
    </div>
  );
}

function PastDueBanner({ membership: m }: { membership: MyMembership }) {
  const [busy, setBusy] = useState(false);
  async function update() {
    setBusy(true);
    const failed = await startCardUpdate();
    if (failed) {
      toast.error(failed);
      setBusy(false);
    }
  }
  // A plan the studio set up for a member who has no saved card has not started: an invitation.
  if (!m.has_card) {
    return (
      <div role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
        <p className="font-semibold">Add a card to start your membership.</p>
        <p className="mt-1">
          The studio has set up this plan for you at {formatPounds(m.amount_due ?? m.price ?? 0)} a month. Add a card and the first month is
          taken then; until then you book as before.
        </p>
        <Button className="mt-3" loading={busy} onClick={() => void update()}>
          Add a card
        </Button>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">Your membership payment failed.</p>
      <p className="mt-1">
        We could not take {formatPounds(m.amount_due ?? m.price ?? 0)}.
        {m.next_retry_at ? ` We will try again on ${formatLondonDate(m.next_retry_at)}.` : ''} You can keep booking meanwhile. Update your
        card to pay now and keep your membership.
      </p>
      <Button className="mt-3" variant="danger" loading={busy} onClick={() => void update()}>
        Update card
      </Button>
    </div>
  );
}

function CancelButton({ membership: m }: { membership: MyMembership }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelMembership();
  async function confirm() {
    try {
      await cancel.mutateAsync();
      toast.success(`Your membership will end on ${formatLondonDate(m.period_end)}.`);
      setOpen(false);
    } catch {
      toast.error('Could not cancel your membership, please try again.');
    }
  }
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Cancel renewal
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Cancel renewal?"
        description={`Your membership stays until ${formatLondonDate(m.period_end)}, then you pay per class.`}
      >
        <div className="mt-2 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep my membership
          </Button>
          <Button variant="danger" loading={cancel.isPending} onClick={() => void confirm()}>
            Cancel renewal
          </Button>
        </div>
      </Modal>
    </>
  );
}

/** Undo the change scheduled for the period end (a downgrade could not be taken back). */
function KeepPlanButton({ planName }: { planName: string }) {
  const keep = useKeepCurrentPlan();
  async function run() {
    try {
      await keep.mutateAsync();
      toast.success(`You stay on ${planName}.`);
    } catch {
      toast.error('Could not keep your plan, please try again.');
    }
  }
  return (
    <Button variant="secondary" loading={keep.isPending} onClick={() => void run()}>
      Keep {planName}
    </Button>
  );
}

function ResumeButton() {
  const resume = useResumeMembership();
  async function run() {
    try {
      await resume.mutateAsync();
      toast.success('Your membership will renew as before.');
    } catch {
      toast.error('Could not resume your membership, please try again.');
    }
  }
  return (
    <Button loading={resume.isPending} onClick={() => void run()}>
      Resume membership
    </Button>
  );
}
