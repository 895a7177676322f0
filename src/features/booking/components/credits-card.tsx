import { Link } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-context';
import { formatClassDate } from '@/lib/studio-time';
import { CREDIT_COUNT_WORDS } from '@/config/credits';
import { summariseCredits, useMyCredits } from '../api/get-my-credits';

/**
 * "Your sessions and passes": what the member's packages and Premium periods gave them
 * and have not been used, with the next expiry. Nothing when there is nothing to use.
 */
export function CreditsCard() {
  const { member } = useAuth();
  const credits = useMyCredits(member?.id ?? null);
  const summary = summariseCredits(credits.data ?? []);
  if (summary.length === 0) return null;
  return (
    <Card>
      <h2 className="text-lg font-semibold">Your sessions and passes</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {summary.map((s) => (
          <li key={s.kind} className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium text-slate-900">{CREDIT_COUNT_WORDS[s.kind](s.count)}</span>
            <span className="text-slate-600">
              {s.count === 1 ? 'expires' : 'next expires'} {formatClassDate(s.nextExpiry)}
            </span>
          </li>
        ))}
      </ul>
      {summary.some((s) => s.kind === 'personal_training') && (
        <Link
          to={paths.personalTraining}
          className="mt-4 inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
        >
          Book a One-to-One session
        </Link>
      )}
      {summary.some((s) => s.kind === 'class') && (
        <p className="mt-3 text-sm text-slate-600">Choose “Use a class credit” when you book a class you would pay for.</p>
      )}
    </Card>
  );
}
