import { useMemo } from 'react';
import { DASHBOARD_NOT_SAVED } from '@/app/pwa/offline-messages';
import { OfflineNotice } from '@/app/pwa/offline-notice';
import { paths } from '@/config/paths';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useOnline } from '@/hooks/use-online';
import { TrialCountdown } from '@/components/membership/trial-countdown';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { tierView } from '@/lib/rules/membership-tier';
import { formatMemberSince } from '@/lib/studio-calendar';
import { useMyBookings } from '@/features/booking/api/get-my-bookings';
import { usePlanUsage } from '@/features/booking/api/get-plan-usage';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { NextClassCard } from '@/features/booking/components/next-class-card';
import { CreditsCard } from '@/features/booking/components/credits-card';
import { PlanUsageCard } from '@/features/booking/components/plan-usage-card';
import { QuickActions } from '@/features/booking/components/quick-actions';
import { QuickStats } from '@/features/booking/components/quick-stats';
import { UpcomingBookingsCard } from '@/features/booking/components/upcoming-bookings-card';
import { BOOKING_MESSAGES } from '@/features/booking/lib/booking-messages';
import { DASHBOARD_UPCOMING_LIMIT, nextClass, splitBookings } from '@/features/booking/lib/booking-tabs';
import { firstName } from '@/features/booking/lib/first-name';
import { DocumentsReminder } from '@/features/documents/components/documents-reminder';
import { useMyCredits } from '@/features/booking/api/get-my-credits';
import { useMyDocumentStatus } from '@/features/documents/api/get-my-documents';
import { RefreshNote } from '@/app/pwa/refresh-note';
import { useMyMembership } from '@/features/membership/api/get-my-membership';
import { PastDueNotice } from '@/features/membership/components/past-due-notice';

/**
 * /dashboard (spec section 2): the member's bookings (the same cached read as My Bookings) and
 * their plan usage as book_class counts it (`my_plan_usage`): nothing is counted here.
 * Offline it shows the copy saved on the phone (decision 0019), or says it has none yet.
 */
export function DashboardRoute() {
  const { member, memberLoading, user } = useAuth();
  const online = useOnline();
  const memberId = member?.id ?? null;
  const bookings = useMyBookings(memberId);
  const usage = usePlanUsage(memberId);
  // The cards that may appear above others (the documents reminder, the credits) are waited for
  // too: arriving after the rest, they would push the page down as the member reads it.
  const documents = useMyDocumentStatus(memberId);
  const credits = useMyCredits(memberId);
  // A failed renewal is said first, with "Update card": a past-due member is never left unaware.
  const membership = useMyMembership(memberId);
  useLiveUpdates(memberId, memberId !== null);

  const failed = bookings.isError || usage.isError || (!memberLoading && !member);
  useErrorToast(failed, BOOKING_MESSAGES.dashboardLoadFailed);

  const upcoming = useMemo(() => splitBookings(bookings.data ?? [], new Date()).upcoming, [bookings.data]);
  const saved = Boolean(bookings.data && usage.data && member);
  // Online, the cards that could appear above others are waited for too. Offline nothing more
  // arrives: what the copy has is shown, without the cards it lacks.
  const ready = saved && (!online || (!documents.isPending && !credits.isPending && !membership.isPending));
  const name = firstName(member?.name, member?.email ?? user?.email);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight">{member ? `Welcome back, ${name}!` : 'Dashboard'}</h1>
      <RefreshNote className="mt-1" />
      {member?.membership_tier === 'trial' && (
        <TrialCountdown expiresAt={member.trial_expires_at} className="mt-2 font-semibold text-brand-700" />
      )}
      {failed ? (
        <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {BOOKING_MESSAGES.dashboardLoadFailed}
        </p>
      ) : !online && !saved ? (
        <OfflineNotice message={DASHBOARD_NOT_SAVED} except={paths.dashboard} />
      ) : !ready || !bookings.data || !usage.data || !member ? (
        <Spinner label="Loading your dashboard" />
      ) : (
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <PastDueNotice memberId={memberId} />
            <DocumentsReminder memberId={memberId} />
            <NextClassCard booking={nextClass(upcoming)} emptyPrompt />
            <PlanUsageCard planLabel={tierView(member.membership_tier).label} />
            <CreditsCard />
            <UpcomingBookingsCard bookings={upcoming.slice(0, DASHBOARD_UPCOMING_LIMIT)} />
          </div>
          <div className="space-y-6">
            <QuickStats
              stats={[
                { label: 'Total Bookings', value: bookings.data.length },
                { label: 'This Month', value: usage.data.bookings },
                { label: 'Upcoming', value: upcoming.length },
                { label: 'Member Since', value: formatMemberSince(member.created_at) },
              ]}
            />
            <QuickActions tier={member.membership_tier} />
          </div>
        </div>
      )}
    </section>
  );
}
