import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Plan } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';

/** A signed-in member's buy button on a catalogue plan: starts that plan's checkout. */
export function PlanBuyButton({ plan }: { plan: Plan }) {
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

