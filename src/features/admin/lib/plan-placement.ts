import { formatPounds, PLANS } from '@/config/plans';
import type { PlanPlacement, PutOnPlanForm } from '../api/put-member-on-plan';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';

/** What the admin is told: a plan starting now, or a running plan changing at its period end. */
export function placementMessage(who: string, planSlug: PutOnPlanForm['planSlug'], placed: PlanPlacement): string {
  if (placed.next_plan_slug && placed.next_price !== null) {
    const when = formatInLondon(placed.period_end, DATE_FORMATS.longDate);
    return `${who} moves to ${PLANS[placed.next_plan_slug].name} at ${formatPounds(placed.next_price)}/month on ${when}, when their paid month ends.`;
  }
  return `${who} is on ${PLANS[planSlug].name}. The first month is charged at the next renewal run.`;
}
