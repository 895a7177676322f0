import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Spinner } from '@/components/ui/spinner';
import { useLoaded } from '@/hooks/use-loaded';
import { useAuth } from '@/lib/auth/auth-context';
import { getProfile } from '../api/get-profile';
import { AccountSummary } from '../components/account-summary';
import { CalendarFeedCard } from '../components/calendar-feed-card';
import { ChangePasswordForm } from '../components/change-password-form';
import { EmailPreferencesCard } from '../components/email-preferences-card';
import { ProfileInfoForm } from '../components/profile-info-form';
import { ProfilePhotoCard } from '../components/profile-photo-card';
import { SecurityTips } from '../components/security-tips';
import { PROFILE_MESSAGES } from '../lib/profile-rules';

/** /edit-profile (spec section 2). */
export function EditProfilePage() {
  const { user, refreshMember } = useAuth();
  const { state } = useLoaded(user?.id ?? null, getProfile);
  const failed = state.status === 'error';
  useEffect(() => {
    if (failed) toast.error(PROFILE_MESSAGES.loadFailed, { id: 'profile-load' });
  }, [failed]);

  // The header's avatar and name come from the auth context's member row: refresh it after edits.
  const refresh = () => void refreshMember().catch(() => undefined);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Edit Profile</h1>
      {failed ? (
        <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {PROFILE_MESSAGES.loadFailed}
        </p>
      ) : state.status === 'loading' ? (
        <Spinner label="Loading your profile" />
      ) : (
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6">
            <ProfilePhotoCard member={state.data.member} onUploaded={refresh} />
            <AccountSummary member={state.data.member} bookingsCount={state.data.bookingsCount} />
          </div>
          <div className="space-y-6 lg:col-span-2">
            <ProfileInfoForm member={state.data.member} onSaved={refresh} />
            <ChangePasswordForm />
            <CalendarFeedCard initialToken={state.data.member.calendar_token} />
            <EmailPreferencesCard />
            <SecurityTips />
          </div>
        </div>
      )}
    </section>
  );
}
