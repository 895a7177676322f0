import { CalendarCheck, CalendarX, Crown, PoundSterling, Star } from 'lucide-react';
import { formatPounds } from '@/config/plans';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useMembershipStats } from '../api/get-membership-stats';
import { StatCard } from './stat-card';

const LOAD_FAILED = 'Failed to load membership figures';
// What "active" and MRR count: the memberships in MRR now, the definition the MRR report ends each
// month at (decision 0036).
const MEMBERSHIPS_COUNTED =
  'Memberships running now with a month paid, at their own monthly price: a cancelled one counts until it ends, a past-due one until it lapses. Reports below ends every month at this figure as it stood then.';

/** Analytics' subscription figures (decision 0009): active memberships per plan, MRR, renewals this month. */
export function MembershipFigures() {
  const stats = useMembershipStats();
  useErrorToast(stats.isError, LOAD_FAILED);
  const value = <T,>(pick: (s: NonNullable<typeof stats.data>) => T) => (stats.data ? pick(stats.data) : '—');
  return (
    <section aria-labelledby="membership-figures-heading" className="mt-8">
      <h2 id="membership-figures-heading" className="text-xl font-bold text-slate-900">
        Memberships
      </h2>
      <p className="mb-4 text-sm text-slate-600">{MEMBERSHIPS_COUNTED}</p>
      {stats.isError && (
        <p role="alert" className="mb-4 text-red-700">
          {LOAD_FAILED}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <StatCard label="Active Standard" value={value((s) => s.active_standard)} icon={<Star aria-hidden="true" className="h-5 w-5" />} />
        <StatCard
          label="Active Platinum Premium"
          value={value((s) => s.active_premium)}
          icon={<Crown aria-hidden="true" className="h-5 w-5" />}
        />
        <StatCard
          label="Monthly recurring revenue"
          value={value((s) => formatPounds(s.mrr))}
          icon={<PoundSterling aria-hidden="true" className="h-5 w-5" />}
        />
        <StatCard
          label="Renewals this month"
          value={value((s) => s.renewals_this_month)}
          icon={<CalendarCheck aria-hidden="true" className="h-5 w-5" />}
        />
        <StatCard
          label="Failed renewals this month"
          value={value((s) => s.failed_renewals_this_month)}
          icon={<CalendarX aria-hidden="true" className="h-5 w-5" />}
        />
      </div>
    </section>
  );
}
