import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import { STUDIO } from '@/config/studio';
import type { MembershipStatus } from '@/lib/rules/membership-status';

/** The caller's membership as `my_membership()` returns it (issue 13). */
export type MyMembership = {
  id: string;
  plan_slug: 'standard' | 'platinum' | 'student' | null;
  tier: 'trial' | 'payg' | 'standard' | 'premium';
  status: MembershipStatus;
  price: number | null;
  period_start: string;
  period_end: string;
  renews: boolean;
  ended_at: string | null;
  next_plan_slug: 'standard' | 'platinum' | 'student' | null;
  next_price: number | null;
  next_retry_at: string | null;
  has_card: boolean;
  amount_due: number | null;
};

/** A plan membership that still gives access (renewing, past due, or cancelled before its end). */
export function isRunningPlan(m: MyMembership | null | undefined): m is MyMembership {
  return !!m && m.ended_at === null && (m.status === 'active' || m.status === 'past_due' || m.status === 'cancelled');
}

/** 15 February 2027 (London). */
export function londonDate(at: string | Date): string {
  return format(new Date(at), 'd MMMM yyyy', { in: tz(STUDIO.timeZone) });
}
