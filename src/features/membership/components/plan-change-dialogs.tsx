import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatPounds, PLANS } from '@/config/plans';
import { ChangeMembershipError, useChangeMembership } from '../api/change-membership';
import { CHANGE_MESSAGES } from '../lib/membership-messages';
import { type MyMembership } from '../lib/membership-view';
import { formatLondonDate } from '@/lib/studio-calendar';

function outcomeToast(outcome: string) {
  if (outcome === 'paid') toast.success(CHANGE_MESSAGES.upgraded);
  else if (outcome === 'scheduled') toast.success(CHANGE_MESSAGES.downgraded);
  else if (outcome === 'declined') toast.error(CHANGE_MESSAGES.declined);
  else if (outcome === 'no_card') toast.error(CHANGE_MESSAGES.noCard);
  else toast(CHANGE_MESSAGES.pending);
}

/**
 * Upgrade Standard → Platinum Premium: says what is charged now, with the saved card, before the
 * member confirms; the new period starts when it is paid.
 */
export function UpgradeButton({ label, className }: { label: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const change = useChangeMembership();
  const price = formatPounds(PLANS.platinum.pricePence / 100);
  async function confirm() {
    try {
      outcomeToast(await change.mutateAsync({ action: 'upgrade', planSlug: 'platinum' }));
      setOpen(false);
    } catch (error) {
      toast.error(error instanceof ChangeMembershipError ? error.message : 'Could not change your membership, please try again.');
    }
  }
  return (
    <>
      <Button className={className} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title="Upgrade to Platinum Premium" description={`${price} will be charged to your saved card now.`}>
        <p className="text-slate-700">
          Your Platinum Premium month starts today and renews monthly at {price}. Your Standard month ends now.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep Standard
          </Button>
          <Button loading={change.isPending} onClick={() => void confirm()}>
            Pay {price} and upgrade
          </Button>
        </div>
      </Modal>
    </>
  );
}

/** Downgrade Platinum Premium → Standard at the period end: nothing is charged now. */
export function DowngradeButton({ membership }: { membership: MyMembership }) {
  const [open, setOpen] = useState(false);
  const change = useChangeMembership();
  const price = formatPounds(PLANS.standard.pricePence / 100);
  async function confirm() {
    try {
      outcomeToast(await change.mutateAsync({ action: 'downgrade', planSlug: 'standard' }));
      setOpen(false);
    } catch (error) {
      toast.error(error instanceof ChangeMembershipError ? error.message : 'Could not change your membership, please try again.');
    }
  }
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Switch to Standard at renewal
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title="Switch to Standard" description={`From ${formatLondonDate(membership.period_end)} you will pay ${price} a month.`}>
        <p className="text-slate-700">You keep Platinum Premium until {formatLondonDate(membership.period_end)}. Nothing is charged now.</p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep Platinum Premium
          </Button>
          <Button loading={change.isPending} onClick={() => void confirm()}>
            Switch at renewal
          </Button>
        </div>
      </Modal>
    </>
  );
}
