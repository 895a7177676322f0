import { toast } from '@/lib/toast';
import { BellRing } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { MARKETING_CONSENT_WORDING } from '@/config/consent';
import { useEmailPreferences, useSetEmailPreferences, useSetMarketingConsent } from '../api/email-preferences';
import { useReviewRequestsWanted, useSetReviewRequestsWanted } from '../api/review-requests';

const EMAIL_PREFERENCES_MESSAGES = {
  heading: 'Email preferences',
  reminders: 'Class reminder emails',
  remindersHint: 'An email the day before each class you have booked.',
  always: 'Booking confirmations, cancellations, waitlist news and payment emails always come: they are about your bookings and money.',
  marketingHint: 'Offers and news from the studio, and a note if you have been away a while. Only if you say yes.',
  marketingOn: 'You will get news and offers',
  marketingOff: 'No news or offers will be sent',
  on: 'Reminder emails are on',
  off: 'Reminder emails are off',
  reviews: 'Review requests',
  reviewsHint: 'After some classes, one email asking how it went, with the studio’s review link. Everyone gets the same one.',
  reviewsOn: 'Review requests are on',
  reviewsOff: 'No review requests will be sent',
  loadFailed: 'Could not load your email preferences. Please refresh the page.',
  saveFailed: 'Could not save your email preferences. Please try again.',
} as const;

const M = EMAIL_PREFERENCES_MESSAGES;

/**
 * /edit-profile: the member turns reminder emails on or off (the same switch as the emails' unsubscribe
 * link), and says yes or no to news and offers (recorded with its words and time).
 */
export function EmailPreferencesCard() {
  const { member } = useAuth();
  if (!member) return null;
  return <EmailPreferencesForm memberId={member.id} />;
}

function EmailPreferencesForm({ memberId }: { memberId: string }) {
  const preferences = useEmailPreferences(memberId);
  const save = useSetEmailPreferences(memberId);
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

  function toggle(classReminders: boolean) {
    if (!preferences.data) return;
    save.mutate(
      { ...preferences.data, classReminders },
      {
        onSuccess: (saved) => toast.success(saved.classReminders ? M.on : M.off),
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
              checked={
                save.isPending ? (save.variables?.classReminders ?? preferences.data.classReminders) : preferences.data.classReminders
              }
              disabled={save.isPending}
              onChange={(event) => toggle(event.currentTarget.checked)}
              aria-labelledby="email-preferences-reminders"
              aria-describedby="email-preferences-hint"
            />
            <span>
              <span id="email-preferences-reminders" className="font-medium text-slate-900">
                {M.reminders}
              </span>
              <span id="email-preferences-hint" className="block text-sm text-slate-600">
                {M.remindersHint}
              </span>
            </span>
          </label>
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
          <ReviewRequestsSwitch memberId={memberId} />
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">{M.always}</p>
        </div>
      )}
    </Card>
  );
}

/** The studio's review requests (decision 0088), off with one switch: the member's preference cell. */
function ReviewRequestsSwitch({ memberId }: { memberId: string }) {
  const wanted = useReviewRequestsWanted(memberId);
  const save = useSetReviewRequestsWanted(memberId);
  if (wanted.data === undefined) return null;
  return (
    <label className="flex min-h-11 cursor-pointer items-start gap-3">
      <input
        type="checkbox"
        role="switch"
        className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
        checked={save.isPending ? (save.variables ?? wanted.data) : wanted.data}
        disabled={save.isPending}
        onChange={(event) =>
          save.mutate(event.currentTarget.checked, {
            onSuccess: (on) => toast.success(on ? M.reviewsOn : M.reviewsOff),
            onError: () => toast.error(M.saveFailed),
          })
        }
        aria-labelledby="email-preferences-reviews"
        aria-describedby="email-preferences-reviews-hint"
      />
      <span>
        <span id="email-preferences-reviews" className="font-medium text-slate-900">
          {M.reviews}
        </span>
        <span id="email-preferences-reviews-hint" className="block text-sm text-slate-600">
          {M.reviewsHint}
        </span>
      </span>
    </label>
  );
}
