import { Link } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { AccountSummary } from '@/features/profile/components/account-summary';
import { CalendarFeedCard } from '@/features/profile/components/calendar-feed-card';
import { EmailPreferencesCard } from '@/features/profile/components/email-preferences-card';
import { NotificationPreferencesCard } from '@/features/profile/components/notification-preferences-card';
import { PushNotificationsCard } from '@/features/profile/components/push-notifications-card';
import { ChangePasswordForm } from '@/features/profile/components/change-password-form';
import { ProfileInfoForm } from '@/features/profile/components/profile-info-form';
import { ProfilePhotoCard } from '@/features/profile/components/profile-photo-card';
import { SecurityTips } from '@/features/profile/components/security-tips';
import { DataRightsCard } from '@/features/profile/components/data-rights-card';
import { useProfile } from '@/features/profile/api/get-profile';
import { PROFILE_MESSAGES } from '@/features/profile/lib/profile-rules';
import { NOT_AVAILABLE_OFFLINE } from '@/app/pwa/offline-messages';
import { OnlineOnly } from '@/app/pwa/offline-notice';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useOnline } from '@/hooks/use-online';
import { useAuth } from '@/lib/auth/auth-context';

/**
 * /edit-profile (spec section 2): photo, profile information, Change Password, account summary,
 * security tips. Its settings are read and saved at the studio: offline it says the page is not
 * available (decision 0019) rather than wait, keeping whatever was being typed for later.
 */
export function EditProfileRoute() {
  const { user, refreshMember } = useAuth();
  const online = useOnline();
  const profile = useProfile(user?.id ?? null);
  useErrorToast(profile.isError, PROFILE_MESSAGES.loadFailed);

  // The header's avatar and name come from the auth context's member row: refresh it after edits.
  const refresh = () => void refreshMember().catch(() => undefined);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Edit Profile</h1>
      <OnlineOnly online={online} message={NOT_AVAILABLE_OFFLINE}>
        {profile.isError ? (
          <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
            {PROFILE_MESSAGES.loadFailed}
          </p>
        ) : !profile.data ? (
          <Spinner label="Loading your profile" />
        ) : (
          <div className="mt-8 grid gap-6 lg:grid-cols-3">
            <div className="space-y-6">
              <ProfilePhotoCard member={profile.data.member} onUploaded={refresh} />
              <AccountSummary member={profile.data.member} bookingsCount={profile.data.bookingsCount} />
            </div>
            <div className="space-y-6 lg:col-span-2">
              <ProfileInfoForm member={profile.data.member} onSaved={refresh} />
              <Card>
                <h2 className="text-lg font-semibold">Family</h2>
                <p className="mt-1 text-sm text-slate-600">
                  Add your children to book them into Kids Club and other family classes with you.
                </p>
                <Link to={paths.family} className="mt-3 inline-block font-semibold text-brand-700 underline">
                  Manage your family
                </Link>
              </Card>
              <ChangePasswordForm />
              <CalendarFeedCard token={profile.data.member.calendar_token} />
              <EmailPreferencesCard />
              <NotificationPreferencesCard />
              <PushNotificationsCard />
              <SecurityTips />
              <DataRightsCard />
            </div>
          </div>
        )}
      </OnlineOnly>
    </section>
  );
}
