import { useState, type ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { Plan } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';
import { planOffer } from '../lib/plan-offer';

/** A signed-in member's buy button on a catalogue plan: starts that plan's checkout. */
function PlanBuyButton({ plan }: { plan: Plan }) {
  const [busy, setBusy] = useState(false);
  async function buy() {
    setBusy(true);
    // On success the browser is leaving for checkout: stay busy so it is not clicked twice.
    if (!(await startPlanCheckout(plan.slug))) setBusy(false);
  }
  return (
    <Button variant={plan.highlighted ? 'inverse' : 'primary'} className="w-full" loading={busy} onClick={() => void buy()}>
      Buy {plan.name}
    </Button>
  );
}

/**
 * Under a catalogue plan for a member: Buy for an upgrade or a package ("buy" replaces the plain
 * button: the route passes the one with a promo code), "Your current plan" for theirs.
 */
export function MemberPlanAction({ plan, tier, buy }: { plan: Plan; tier: string | null | undefined; buy?: (plan: Plan) => ReactNode }) {
  const offer = planOffer(plan, tier);
  if (offer === 'buy') return buy ? buy(plan) : <PlanBuyButton plan={plan} />;
  return (
    <p
      className={cn(
        'flex min-h-11 items-center justify-center gap-2 rounded-lg text-sm font-semibold',
        plan.highlighted ? 'bg-white/10 text-white' : 'bg-slate-100 text-slate-700',
      )}
    >
      {offer === 'current' && <CheckCircle2 aria-hidden="true" className="h-4 w-4" />}
      {offer === 'current' ? 'Your current plan' : 'Included in your plan'}
    </p>
  );
}
