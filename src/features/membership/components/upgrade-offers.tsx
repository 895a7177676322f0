import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatPlanPrice, PLANS, type PlanSlug } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';
import { UpgradeButton } from './plan-change-dialogs';

/**
 * Recommended upgrades for the member's tier; buying goes through the create-checkout function.
 * A member whose plan runs upgrades it instead: charged now with the saved card, after saying how much.
 */
export function UpgradeOffers({ slugs, hasRunningPlan = false }: { slugs: PlanSlug[]; hasRunningPlan?: boolean }) {
  const [busy, setBusy] = useState<PlanSlug | null>(null);

  async function buy(slug: PlanSlug) {
    setBusy(slug);
    const leaving = await startPlanCheckout(slug);
    // On success the browser is on its way to checkout: keep the button busy until it leaves.
    if (!leaving) setBusy(null);
  }

  if (slugs.length === 0) {
    return <p className="text-slate-600">You're on our top plan. Nothing to upgrade.</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {slugs.map((slug) => {
        const plan = PLANS[slug];
        return (
          <li key={slug} className="flex flex-col rounded-xl border border-slate-200 p-4">
            <p className="font-semibold text-slate-900">{plan.name}</p>
            <p className="text-lg font-bold text-brand-700">{formatPlanPrice(plan)}</p>
            <p className="mt-1 flex-1 text-sm text-slate-600">{plan.summary}</p>
            {hasRunningPlan && slug === 'platinum' ? (
              <UpgradeButton className="mt-3" label={`Upgrade to ${plan.name}`} />
            ) : (
              <Button className="mt-3" loading={busy === slug} disabled={busy !== null} onClick={() => void buy(slug)}>
                Upgrade to {plan.name}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
