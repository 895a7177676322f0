import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatPounds, PLANS } from '@/config/plans';
import { useCancelMembership } from '../api/cancel-membership';
import { useKeepCurrentPlan } from '../api/keep-current-plan';
import { useResumeMembership } from '../api/resume-membership';
import type { MyMembership } from '../lib/membership-view';
import { DowngradeButton } from './plan-change-dialogs';
import { PauseControls } from './pause-controls';
import { AddCardNotice, SaveCardButton } from './card-buttons';
import { formatLondonDate } from '@/lib/studio-calendar';

/**
 * The running plan's parts of My Membership (decision 0009): the change scheduled for the period
 * end, "Add a card" / "Replace card" (decision 0104), and cancel / resume / switch to Standard (a failed renewal's banner is PastDueBanner). Plan, status and renewal are said once, by My Membership's card.
 * Upgrades are offered where plans are (UpgradeOffers, the catalogue).
 */
export function PlanActions({ membership: m }: { membership: MyMembership }) {
  const planName = m.plan_slug ? PLANS[m.plan_slug].name : '';
  return (
    <div className="space-y-4">
      {/* A plan carried over by the studio's import (decision 0065): paid up to its next renewal
          elsewhere, with no card saved here yet; it is added now, charged on that date (decision 0104). */}
      {m.status === 'active' && m.has_card === false && <AddCardNotice membership={m} />}
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
        {m.status === 'active' && m.has_card === true && <SaveCardButton label="Replace card" variant="secondary" />}
      </div>
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
