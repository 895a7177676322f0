import { useMyMembership } from '../api/get-my-membership';
import { isRunningPlan } from '../lib/membership-view';
import { PastDueBanner } from './past-due-banner';

/**
 * The dashboard's word on a renewal that failed (never silence): the same banner and
 * "Update card" as /membership, or the invitation to add a card for a plan the studio set up.
 * Nothing for everyone else.
 */
export function PastDueNotice({ memberId }: { memberId: string | null }) {
  const membership = useMyMembership(memberId);
  const m = membership.data;
  if (!isRunningPlan(m) || m.status !== 'past_due') return null;
  return <PastDueBanner membership={m} />;
}
