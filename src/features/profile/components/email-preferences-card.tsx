import { toast } from '@/lib/toast';
import { BellRing } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { MARKETING_CONSENT_WORDING } from '@/config/consent';
import { useEmailPreferences, useSetMarketingConsent } from '../api/email-preferences';

const EMAIL_PREFERENCES_MESSAGES = {
  heading: 'Email preferences',
  always: 'Booking confirmations, cancellations, waitlist news and payment emails always come: they are about your bookings and money.',
  marketingHint: 'Offers and news from the studio, and a note if you have been away a while. Only if you say yes.',
  marketingOn: 'You will get news and offers',
  marketingOff: 'No news or offers will be sent',
  loadFailed: 'Could not load your email preferences. Please refresh the page.',
  saveFailed: 'Could not save your email preferences. Please try again.',
} as const;

const M = EMAIL_PREFERENCES_MESSAGES;

/**
 * /edit-profile: the member says yes or no to news and offers (recorded with its words and time;
 * the marketing emails' unsubscribe link says no). Which messages come by which channel is the
 * preferences grid beside it (decision 0091).
 */
export function EmailPreferencesCard() {
  const { member } = useAuth();
  if (!member) return null;
  return <EmailPreferencesForm memberId={member.id} />;
}

function EmailPreferencesForm({ memberId }: { memberId: string }) {
  const preferences = useEmailPreferences(memberId);
  const consent = useSetMarketingConsent(memberId);

  function toggleMarketing(marketing: boolean) {
    if (!preferences.data) return;
    consent.mutate(
      { ...preferences.data, marketing },
      {
        onSuccess: (saved) => toast.success(saved.marketing ? M.marketingOn : M.marketingOff),
        onError: () => toast.error(M.saveFailed),
      },
    );
  }

  return (
    <Card aria-labelledby="email-preferences-heading">
      <h2 id="email-preferences-heading" className="flex items-center gap-2 text-lg font-semibold">
        <BellRing aria-hidden="true" className="h-5 w-5 text-brand-700" />
        {M.heading}
      </h2>
      {preferences.isPending ? (
        <Spinner label="Loading your email preferences" />
      ) : preferences.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {M.loadFailed}
        </p>
      ) : (
        <div className="mt-4 space-y-3">
          <label className="flex min-h-11 cursor-pointer items-start gap-3">
            <input
              type="checkbox"
              role="switch"
              className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
              checked={consent.isPending ? (consent.variables?.marketing ?? preferences.data.marketing) : preferences.data.marketing}
              disabled={consent.isPending}
              onChange={(event) => toggleMarketing(event.currentTarget.checked)}
              aria-labelledby="email-preferences-marketing"
              aria-describedby="email-preferences-marketing-hint"
            />
            <span>
              <span id="email-preferences-marketing" className="font-medium text-slate-900">
                {MARKETING_CONSENT_WORDING}
              </span>
              <span id="email-preferences-marketing-hint" className="block text-sm text-slate-600">
                {M.marketingHint}
              </span>
            </span>
          </label>
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">{M.always}</p>
        </div>
      )}
    </Card>
  );
}
