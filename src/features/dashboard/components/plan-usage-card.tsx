import { Link } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { isUnlimitedQuota } from '@/config/plans';
import { dashboardUsageLevel, usagePercent, type DashboardUsageLevel } from '@/lib/rules/usage';

const BAR: Record<DashboardUsageLevel, string> = { ok: 'bg-green-500', warning: 'bg-yellow-400', danger: 'bg-red-500' };

/** Plan usage this month; the dashboard's bar turns yellow at 75% and red at 90% (spec section 9). */
export function PlanUsageCard({ planLabel, used, total }: { planLabel: string; used: number; total: number }) {
  const unlimited = isUnlimitedQuota(total);
  const level = unlimited ? 'ok' : dashboardUsageLevel(used, total);
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">Plan Usage This Month</h2>
          <p className="text-sm text-slate-600">{planLabel}</p>
        </div>
        <Link to="/membership" className="text-sm font-semibold text-brand-700 hover:underline">
          Manage
        </Link>
      </div>
      {unlimited ? (
        <p className="mt-4 text-slate-700">
          <span className="text-2xl font-bold text-slate-900">{used}</span> {used === 1 ? 'class' : 'classes'} booked this month · no monthly limit
        </p>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            <span className="text-2xl font-bold text-slate-900">{used}</span> of {total} classes used
          </p>
          <div
            role="progressbar"
            aria-label="Classes used this month"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={Math.min(used, total)}
            aria-valuetext={`${used} of ${total} classes used`}
            data-level={level}
            className="mt-3 h-3 overflow-hidden rounded-full bg-slate-100"
          >
            <div className={cn('h-full rounded-full transition-all', BAR[level])} style={{ width: `${usagePercent(used, total)}%` }} />
          </div>
          <p className="mt-2 text-sm text-slate-600">{Math.max(0, total - used)} classes left this month</p>
        </>
      )}
    </Card>
  );
}
