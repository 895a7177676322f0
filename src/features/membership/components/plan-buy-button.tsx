import { useState, type ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { Plan } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';
import { toast } from '@/lib/toast';
import { startDirectDebit } from '../api/direct-debit';
import { planOffer } from '../lib/plan-offer';

/**
 * A signed-in member's buy button on a catalogue plan: starts that plan's card checkout (or `card`,
 * the route's card purchase with a promo code, decision 0083). A monthly membership may be paid by
 * Direct Debit instead (decision 0076): GoCardless's page sets it up and the first month is
 * collected once the Direct Debit exists.
 */
function PlanBuyButton({ plan, card }: { plan: Plan; card?: ReactNode }) {
  const [busy, setBusy] = useState<'card' | 'direct_debit' | null>(null);
  async function buy() {
    setBusy('card');
    // On success the browser is leaving for checkout: stay busy so it is not clicked twice.
    if (!(await startPlanCheckout(plan.slug))) setBusy(null);
  }
  async function buyByDirectDebit() {
    setBusy('direct_debit');
    const failed = await startDirectDebit(plan.slug);
    if (failed) {
      setBusy(null);
      toast.error(failed);
    }
  }
  return (
    <div className="space-y-2">
      {card ?? (
        <Button
          variant={plan.highlighted ? 'inverse' : 'primary'}
          className="w-full"
          loading={busy === 'card'}
          disabled={busy !== null}
          onClick={() => void buy()}
        >
          Buy {plan.name}
        </Button>
      )}
      {plan.interval === 'month' && plan.grantsTier && !plan.requiresProof && (
        <Button
          variant="secondary"
          className="w-full"
          loading={busy === 'direct_debit'}
          disabled={busy !== null}
          aria-label={`Buy ${plan.name} by Direct Debit`}
          onClick={() => void buyByDirectDebit()}
        >
          Pay by Direct Debit instead
        </Button>
      )}
    </div>
  );
}

/**
 * Under a catalogue plan for a member: Buy for an upgrade or a package ("buy" replaces the plain
 * card button: the route passes the one with a promo code; Direct Debit stays beside it), "Your
 * current plan" for theirs.
 */
export function MemberPlanAction({ plan, tier, buy }: { plan: Plan; tier: string | null | undefined; buy?: (plan: Plan) => ReactNode }) {
  const offer = planOffer(plan, tier);
  if (offer === 'buy') return <PlanBuyButton plan={plan} card={buy?.(plan)} />;
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
