import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatPounds, planBySlug } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';
import { formatLondonDate } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import { useIntroOffers, useMyReferral, type IntroOffer } from '../api/offers';
import { referralLink } from '../lib/referral-link';

/**
 * A signed-in member's offers on /membership: the intro offers they may buy (the database says
 * who may: new members, once) and their referral link.
 */
export function MemberOffers() {
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 pt-6 sm:px-6">
      <IntroOffers />
      <ReferAFriend />
    </div>
  );
}

function IntroOffers() {
  const offers = useIntroOffers();
  const open = (offers.data ?? []).filter((o) => o.refusal === null && planBySlug(o.planSlug));
  if (open.length === 0) return null;
  return (
    <Card>
      <section aria-labelledby="intro-offers-heading">
        <h2 id="intro-offers-heading" className="text-xl font-bold tracking-tight">
          Intro offers for new members
        </h2>
        <ul className="mt-4 space-y-3">
          {open.map((o) => (
            <IntroOfferRow key={o.id} offer={o} />
          ))}
        </ul>
      </section>
    </Card>
  );
}

function IntroOfferRow({ offer }: { offer: IntroOffer }) {
  const [busy, setBusy] = useState(false);
  const plan = planBySlug(offer.planSlug)!;
  async function buy() {
    setBusy(true);
    if (!(await startPlanCheckout(plan.slug, { introOfferId: offer.id }))) setBusy(false);
  }
  return (
    <li className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <p>
        <span className="font-semibold">{offer.name}</span>: {offer.planName} for {formatPounds(offer.price)}{' '}
        <span className="text-slate-600">
          (usually {formatPounds(offer.listPrice)}
          {offer.endsAt ? `, until ${formatLondonDate(offer.endsAt)}` : ''})
        </span>
      </p>
      <Button loading={busy} onClick={() => void buy()} aria-label={`Buy ${offer.name} for ${formatPounds(offer.price)}`}>
        Buy for {formatPounds(offer.price)}
      </Button>
    </li>
  );
}

function ReferAFriend() {
  const referral = useMyReferral();
  const r = referral.data;
  if (!r || !r.enabled) return null;
  const link = referralLink(window.location.origin, r.code);
  const reward =
    r.rewardKind === 'renewal_discount'
      ? `${formatPounds(r.renewalAmount)} off your next renewal`
      : r.rewardKind === 'class_credit'
        ? 'a free class credit'
        : 'a free personal-training session';
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Link copied');
    } catch {
      toast.error('Could not copy: select the link and copy it.');
    }
  }
  return (
    <Card>
      <section aria-labelledby="refer-heading">
        <h2 id="refer-heading" className="text-xl font-bold tracking-tight">
          Refer a friend
        </h2>
        <p className="mt-2 text-slate-700">
          Share your link. When a friend who is new to the studio joins through it and their first payment goes through, you each get{' '}
          {reward}.
        </p>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center">
          <input
            readOnly
            aria-label="Your referral link"
            value={link}
            className="min-h-11 flex-1 rounded-lg border border-slate-300 px-3 text-sm"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button variant="secondary" onClick={() => void copy()}>
            Copy link
          </Button>
        </div>
        <p className="mt-2 text-sm text-slate-600">
          {r.referred === 0
            ? 'Nobody has joined through your link yet.'
            : `${r.referred} joined through your link; ${r.rewarded} ${r.rewarded === 1 ? 'reward' : 'rewards'} given.`}
        </p>
      </section>
    </Card>
  );
}
