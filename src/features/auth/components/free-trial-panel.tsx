import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { TRIAL_OFFER } from '@/config/trial';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from './auth-card';
import { CredentialsForm, type Credentials } from './credentials-form';
import { AUTH_MESSAGES, TRIAL_MESSAGES } from '../lib/auth-messages';
import { signInErrorMessage } from '../lib/sign-in-error-message';

/** /free-trial: "Your First Class Is On Us". The database makes the account a trial member for 7 days: one free class. */
export function FreeTrialPanel() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [existingAccount, setExistingAccount] = useState(false);
  const signUp = useSignUp();

  function handleSubmit(values: Credentials) {
    signUp.mutate(
      { ...values, source: 'free-trial' },
      {
        onSuccess: (result) => {
          if (result.existingAccount) return setExistingAccount(true);
          toast.success(AUTH_MESSAGES.trialCheckEmail);
          setSentTo(values.email.trim());
        },
        onError: (error) => toast.error(error.message || signInErrorMessage(null)),
      },
    );
  }

  return (
    <AuthCard title="Your First Class Is On Us" subtitle={TRIAL_OFFER.sentence}>
      {existingAccount ? (
        <div role="status" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">{TRIAL_MESSAGES.existingAccount}</p>
          <p className="text-sm">{TRIAL_MESSAGES.existingAccountHelp}</p>
          <div className="flex flex-wrap gap-3 pt-1">
            <Link to={paths.signIn.path} className={buttonClasses()}>
              Sign In
            </Link>
            <Link to={paths.membership} className={buttonClasses({ variant: 'secondary' })}>
              See memberships and packages
            </Link>
          </div>
        </div>
      ) : sentTo ? (
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
