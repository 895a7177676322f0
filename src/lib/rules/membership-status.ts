import type { Enums } from '@/lib/database.types';

/** A membership's status (public.membership_status) and how screens name it. */
export type MembershipStatus = Enums<'membership_status'>;

export const MEMBERSHIP_STATUS_LABELS: Record<MembershipStatus, string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment failed',
  cancelled: 'Cancelled',
  lapsed: 'Ended',
};
