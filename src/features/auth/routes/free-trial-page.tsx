import { useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { signUp } from '../api/sign-up';
import { AuthCard } from '../components/auth-card';
import { CredentialsForm, type Credentials } from '../components/credentials-form';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { signInErrorMessage } from '../lib/sign-in-error-message';

/** /free-trial: "Your First Class Is On Us". The database makes the account a 7-day trial member. */
export function FreeTrialPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function handleSubmit({ email, password, fullName }: Credentials) {
    try {
      const { error } = await signUp({ email, password, fullName, signupSource: 'free-trial' });
      if (error) {
        toast.error(error.message || signInErrorMessage(null));
        return;
      }
      toast.success(AUTH_MESSAGES.trialCheckEmail);
      setSentTo(email.trim());
    } catch {
      toast.error(signInErrorMessage(null));
    }
  }

  return (
    <AuthCard title="Your First Class Is On Us" subtitle="Sign up for a free 7-day trial and book your first class.">
      {sentTo ? (
        <div role="status" className="space-y-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
          <p className="font-semibold">{AUTH_MESSAGES.trialCheckEmail}</p>
          <p className="text-sm">
            We sent the link to <strong>{sentTo}</strong>.
          </p>
        </div>
      ) : (
        <CredentialsForm label="Start your free trial" withName requireName submitLabel="Start My Free Trial" busyLabel="Creating account..." onSubmit={handleSubmit} />
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        Already a member?{' '}
        <Link to="/signin" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
