import { useNow } from '@/hooks/use-now';
import { trialEndsText } from '@/lib/rules/trial-countdown';

const MINUTE_MS = 60_000;

/** "Your free trial ends in N days" while a free trial runs (dashboard and /membership). */
export function TrialCountdown({ expiresAt, className }: { expiresAt: string | null | undefined; className?: string }) {
  const now = useNow(MINUTE_MS);
  if (!expiresAt) return null;
  return <p className={className ?? 'font-semibold text-brand-700'}>{trialEndsText(expiresAt, now)}</p>;
}
