import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import toast from 'react-hot-toast';
import { cn } from '@/components/ui/cn';
import { ensureMember } from '@/lib/auth/ensure-member';
import { signInWithPassword } from '../api/sign-in';
import { signUp } from '../api/sign-up';
import { AuthCard } from '../components/auth-card';
import { CredentialsForm, type Credentials } from '../components/credentials-form';
import { ResetPasswordForm } from '../components/reset-password-form';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { safeRedirect } from '../lib/safe-redirect';
import { signInErrorMessage } from '../lib/sign-in-error-message';

type Mode = 'signin' | 'signup' | 'reset';

const TITLES: Record<Mode, string> = { signin: 'Sign In', signup: 'Create Account', reset: 'Reset Password' };

/** /signin: Sign In and Create Account toggle, plus Reset Password (spec section 2). */
export function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('signin');
  const [email, setEmail] = useState('');
  // A new account that must confirm its email first: said on the page, not only in a toast.
  const [confirmFor, setConfirmFor] = useState<string | null>(null);
  const target = safeRedirect(params.get('redirect'));

  async function handleSignIn({ email: address, password }: Credentials) {
    try {
      const { error } = await signInWithPassword(address, password);
      if (error) {
        toast.error(signInErrorMessage(error));
        return;
      }
    } catch (error) {
      toast.error(signInErrorMessage(error as { message?: string }));
      return;
    }
    await ensureMember();
    toast.success(AUTH_MESSAGES.signedIn);
    void navigate(target, { replace: true });
  }

  async function handleSignUp({ email: address, password, fullName }: Credentials) {
    try {
      const { data, error } = await signUp({ email: address, password, fullName });
      if (error) {
        toast.error(error.message || signInErrorMessage(null));
        return;
      }
      toast.success(data.session ? AUTH_MESSAGES.accountCreated : AUTH_MESSAGES.signUpCheckEmail);
      if (data.session) {
        // Email confirmation is off on this backend: the new account is already signed in.
        await ensureMember();
        void navigate(target, { replace: true });
        return;
      }
      setEmail(address);
      setConfirmFor(address.trim());
      setMode('signin');
    } catch {
      toast.error(signInErrorMessage(null));
    }
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
          Check your inbox at <strong>{confirmFor}</strong> for a confirmation link, then sign in. Already confirmed this
          address? Just sign in.
        </p>
      )}

      {mode === 'signin' && (
        <>
          <CredentialsForm key="signin" label="Sign In" initialEmail={email} submitLabel="Sign In" busyLabel="Signing in..." onSubmit={handleSignIn} />
          <button type="button" onClick={() => setMode('reset')} className="mt-4 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
            Forgot your password?
          </button>
        </>
      )}
      {mode === 'signup' && <CredentialsForm key="signup" label="Create Account" withName submitLabel="Create Account" busyLabel="Creating account..." onSubmit={handleSignUp} />}
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
          <Link to="/free-trial" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Try your first class free
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
