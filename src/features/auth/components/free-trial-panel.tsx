import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { paths } from '@/config/paths';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from './auth-card';
import { CredentialsForm, type Credentials } from './credentials-form';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { signInErrorMessage } from '../lib/sign-in-error-message';

/** /free-trial: "Your First Class Is On Us". The database makes the account a 7-day trial member. */
export function FreeTrialPanel() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const signUp = useSignUp();

  function handleSubmit(values: Credentials) {
    signUp.mutate(
      { ...values, source: 'free-trial' },
      {
        onSuccess: () => {
          toast.success(AUTH_MESSAGES.trialCheckEmail);
          setSentTo(values.email.trim());
        },
        onError: (error) => toast.error(error.message || signInErrorMessage(null)),
      },
    );
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
        <CredentialsForm
          kind="trial"
          label="Start your free trial"
          submitLabel="Start My Free Trial"
          busyLabel="Creating account..."
          busy={signUp.isPending}
          onSubmit={handleSubmit}
        />
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        Already a member?{' '}
        <Link to={paths.signIn.path} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
