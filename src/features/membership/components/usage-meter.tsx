import { cn } from '@/components/ui/cn';
import { isUnlimitedQuota } from '@/config/plans';
import { membershipUsageLevel, membershipUsageMessage, usagePercent, type MembershipUsageLevel } from '@/lib/rules/usage';

const BAR: Record<MembershipUsageLevel, string> = { ok: 'bg-brand-600', warning: 'bg-yellow-400', over: 'bg-red-500' };
const TEXT: Record<MembershipUsageLevel, string> = { ok: '', warning: 'text-yellow-800', over: 'text-red-700' };

/** My Membership's usage: yellow from 80%, red once used exceeds the plan, with the spec's messages. */
export function UsageMeter({ used, total }: { used: number; total: number }) {
  if (isUnlimitedQuota(total)) {
    return (
      <p className="text-slate-700">
        <span className="font-semibold text-slate-900">{used}</span> {used === 1 ? 'class' : 'classes'} this month · pay per class, no monthly limit
      </p>
    );
  }
  const level = membershipUsageLevel(used, total);
  const message = membershipUsageMessage(level);
  return (
    <div>
      <p className="flex items-baseline justify-between text-sm text-slate-700">
        <span>Classes used this month</span>
        <span className="font-semibold text-slate-900">
          {used} / {total}
        </span>
      </p>
      <div
        role="progressbar"
        aria-label="Classes used this month"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(used, total)}
        aria-valuetext={`${used} of ${total} classes used`}
        data-level={level}
        className="mt-2 h-3 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={cn('h-full rounded-full', BAR[level])} style={{ width: `${usagePercent(used, total)}%` }} />
      </div>
      {message && (
        <p role="status" className={cn('mt-2 text-sm font-medium', TEXT[level])}>
          {message}
        </p>
      )}
    </div>
  );
}
