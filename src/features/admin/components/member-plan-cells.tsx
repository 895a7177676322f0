import { Badge } from '@/components/ui/badge';
import { controlClasses } from '@/components/ui/field';
import { MEMBERSHIP_STATUS_LABELS } from '@/lib/rules/membership-status';
import type { MemberFilter, MemberPlan } from '../api/get-members';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';

const RENEWAL_DATE = DATE_FORMATS.date;

/** The member's membership status (decision 0009); "—" when they never had a plan or trial. */
export function PlanStatusCell({ plan }: { plan: MemberPlan }) {
  if (!plan) return <span className="text-slate-400">—</span>;
  const label = plan.ended_at && plan.status === 'cancelled' ? MEMBERSHIP_STATUS_LABELS.lapsed : MEMBERSHIP_STATUS_LABELS[plan.status];
  return <Badge tone={plan.status === 'past_due' ? 'danger' : 'neutral'}>{label}</Badge>;
}

/** The next charge date of a renewing plan ("Retry …" when past due), "Ends …" for a cancelled one, else "—". */
export function NextRenewalCell({ plan }: { plan: MemberPlan }) {
  if (!plan || plan.ended_at || plan.status === 'trialing' || plan.status === 'lapsed') return <span className="text-slate-400">—</span>;
  if (plan.status === 'past_due' && plan.next_retry_at) return <>Retry {formatInLondon(plan.next_retry_at, RENEWAL_DATE)}</>;
  const date = formatInLondon(plan.period_end, RENEWAL_DATE);
  return <>{plan.status === 'cancelled' ? `Ends ${date}` : date}</>;
}

/** All members, or only the past-due ones (their renewal failed and is being retried). */
export function MemberFilterSelect({ value, onChange }: { value: MemberFilter; onChange: (filter: MemberFilter) => void }) {
  return (
    <label className="text-sm font-medium text-slate-700">
      Show
      <select
        className={`${controlClasses(false)} mt-1`}
        value={value}
        onChange={(e) => onChange(e.target.value === 'past_due' ? 'past_due' : 'all')}
      >
        <option value="all">All members</option>
        <option value="past_due">Past due</option>
      </select>
    </label>
  );
}
