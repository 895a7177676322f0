import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatPounds, PLANS } from '@/config/plans';
import { ChangeMembershipError, useChangeMembership } from '../api/change-membership';
import { useUpgradeQuote } from '../api/get-upgrade-quote';
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
 * Upgrade Standard → Platinum Premium: says what is charged now (the price less the unused days
 * of Standard, from the database's quote), with the saved card, before the member confirms; the
 * new period starts when it is paid. The server charges nothing if the figure has changed since.
 */
export function UpgradeButton({ label, className }: { label: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const change = useChangeMembership();
  const quote = useUpgradeQuote('platinum', open);
  const planPrice = formatPounds(PLANS.platinum.pricePence / 100);
  const amount = quote.data ? formatPounds(quote.data.amount) : null;
  async function confirm() {
    if (!quote.data) return;
    try {
      outcomeToast(await change.mutateAsync({ action: 'upgrade', planSlug: 'platinum', expectedAmount: quote.data.amount }));
      setOpen(false);
    } catch (error) {
      toast.error(error instanceof ChangeMembershipError ? error.message : 'Could not change your membership, please try again.');
      void quote.refetch();
    }
  }
  const description = amount
    ? `${amount} will be charged to your saved card now.`
    : quote.isError
      ? 'Could not work out the price, please try again.'
      : 'Working out what you pay now…';
  return (
    <>
      <Button className={className} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title="Upgrade to Platinum Premium" description={description}>
        {quote.data && quote.data.credit > 0 ? (
          <p className="text-slate-700">
            Platinum Premium is {planPrice} a month. Your Standard month ends now, so the {upgradeDays(quote.data.unusedDays)} of it you
            paid for and will not use ({formatPounds(quote.data.credit)}) come off.
          </p>
        ) : null}
        <p className="mt-2 text-slate-700">
          Your Platinum Premium month starts today and renews monthly at {planPrice}.
          {quote.data && quote.data.credit > 0 ? '' : ' Your Standard month ends now.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep Standard
          </Button>
          <Button loading={change.isPending} disabled={!amount || change.isPending} onClick={() => void confirm()}>
            {amount ? `Pay ${amount} and upgrade` : 'Upgrade'}
          </Button>
        </div>
      </Modal>
    </>
  );
}

const upgradeDays = (days: number) => (days === 1 ? '1 unused day' : `${days} unused days`);

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
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Switch to Standard"
        description={`From ${formatLondonDate(membership.period_end)} you will pay ${price} a month.`}
      >
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
