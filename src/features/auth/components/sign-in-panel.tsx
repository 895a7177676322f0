import { useRef, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { cn } from '@/components/ui/cn';
import { paths } from '@/config/paths';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from './auth-card';
import { CredentialsForm, type Credentials } from './credentials-form';
import { ResetPasswordForm } from './reset-password-form';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { signInErrorMessage } from '../lib/sign-in-error-message';
import { requestedSignInView } from '../lib/sign-in-views';
import { DEFAULT_AFTER_SIGN_IN } from '../lib/safe-redirect';

type Mode = 'signin' | 'signup' | 'reset';

const TITLES: Record<Mode, string> = { signin: 'Sign In', signup: 'Create Account', reset: 'Reset Password' };

const noSubscription = () => () => undefined;

/**
 * The view a link asked for (`/signin?view=reset`, from an expired link's "Request a New Link"),
 * or null. /signin is prerendered as Sign In, so it is read after hydration (the server snapshot
 * is null): the page then switches without a hydration mismatch.
 */
function useRequestedMode(): Mode | null {
  const [params] = useSearchParams();
  const requested = requestedSignInView(params.get('view'));
  return useSyncExternalStore(
    noSubscription,
    () => requested,
    () => null,
  );
}

/**
 * /signin: Sign In and Create Account toggle, plus Reset Password (spec section 2). `target` is
 * where a successful sign-in goes (already checked to be on this site).
 */
export function SignInPanel({ target }: { target: string }) {
  const navigate = useNavigate();
  const requestedMode = useRequestedMode();
  const [chosenMode, setMode] = useState<Mode | null>(null);
  const mode = chosenMode ?? requestedMode ?? 'signin';
  const [email, setEmail] = useState('');
  // A new account that must confirm its email first: said on the page, and only that.
  const [confirmFor, setConfirmFor] = useState<string | null>(null);
  const signIn = useSignIn();
  const signUp = useSignUp();

  function handleSignIn(values: Credentials) {
    signIn.mutate(values, {
      onSuccess: ({ coach }) => {
        toast.success(AUTH_MESSAGES.signedIn);
        // A coach with nowhere asked for lands on their classes.
        void navigate(coach && target === DEFAULT_AFTER_SIGN_IN ? paths.coach.home : target, { replace: true });
      },
      onError: (error) => toast.error(signInErrorMessage(error)),
    });
  }

  // A double click creates one account: the second press finds the first under way.
  const signingUp = useRef(false);
  function handleSignUp(values: Credentials) {
    if (signingUp.current) return;
    signingUp.current = true;
    signUp.mutate(
      { ...values, source: 'signin' },
      {
        onSuccess: ({ signedIn }) => {
          if (signedIn) {
            // Email confirmation is off on this backend: the new account is already signed in.
            toast.success(AUTH_MESSAGES.accountCreated);
            void navigate(target, { replace: true });
            return;
          }
          setEmail(values.email.trim());
          setConfirmFor(values.email.trim());
          setMode('signin');
        },
        onError: (error) => toast.error(signInErrorMessage(error)),
        onSettled: () => {
          signingUp.current = false;
        },
      },
    );
  }

  return (
    <AuthCard title={TITLES[mode]}>
      {mode !== 'reset' && (
        <div role="group" aria-label="Sign in or create an account" className="mb-6 grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1">
          {(['signin', 'signup'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={cn(
                'min-h-10 rounded-md text-sm font-semibold transition-colors',
                mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {TITLES[m]}
            </button>
          ))}
        </div>
      )}

      {confirmFor && mode === 'signin' && (
        <p role="status" className="mb-4 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          {/* True whether or not the address was new: hosted Supabase answers a sign-up of a
              registered address like a new one and sends nothing. */}
          Check your email at <strong>{confirmFor}</strong> for a confirmation link, then sign in. Already confirmed this address? Just sign
          in.
        </p>
      )}

      {mode === 'signin' && (
        <>
          <CredentialsForm
            key="signin"
            kind="signin"
            label="Sign In"
            initialEmail={email}
            submitLabel="Sign In"
            busyLabel="Signing in..."
            busy={signIn.isPending || signIn.isSuccess}
            onSubmit={handleSignIn}
          />
          <button
            type="button"
            onClick={() => setMode('reset')}
            className="mt-4 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Forgot your password?
          </button>
        </>
      )}
      {mode === 'signup' && (
        <CredentialsForm
          key="signup"
          kind="signup"
          label="Create Account"
          submitLabel="Create Account"
          busyLabel="Creating account..."
          busy={signUp.isPending}
          onSubmit={handleSignUp}
        />
      )}
      {mode === 'reset' && (
        <ResetPasswordForm
          initialEmail={email}
          onBack={(address) => {
            setEmail(address);
            setMode('signin');
          }}
        />
      )}

      {mode !== 'reset' && (
        <p className="mt-6 text-center text-sm text-slate-600">
          New to the studio?{' '}
          <Link to={paths.freeTrial} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Try your first class free
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
