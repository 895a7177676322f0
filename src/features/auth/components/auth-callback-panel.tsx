import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { buttonClasses } from '@/components/ui/button';
import { rememberEmail } from '@/lib/browser-storage';
import { ensureMember } from '@/lib/auth/ensure-member';
import { isPasswordRecovery } from '@/lib/auth/auth-redirect';
import { waitForCallbackSession } from '../api/wait-for-callback-session';
import { paths } from '@/config/paths';
import { AuthCard } from './auth-card';
import { SetNewPasswordForm } from './set-new-password-form';
import { AUTH_MESSAGES } from '../lib/auth-messages';

const AFTER_CALLBACK = paths.mySchedule;

type Phase = 'working' | 'failed' | 'recovery';

/**
 * /auth/callback: where confirmation and reset emails land. Stores the email, makes sure the
 * member row exists (a failure is only logged), then goes to /my-schedule; a recovery link asks
 * for a new password first.
 */
export function AuthCallbackPanel() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [phase, setPhase] = useState<Phase>('working');
  const recoveryInQuery = params.get('type') === 'recovery';

  useEffect(() => {
    let active = true;
    void (async () => {
      const { session, error } = await waitForCallbackSession();
      if (!active) return;
      if (!session || error) {
        setPhase('failed');
        return;
      }
      if (session.user.email) rememberEmail(session.user.email);
      await ensureMember();
      if (!active) return;
      if (recoveryInQuery || isPasswordRecovery()) setPhase('recovery');
      else void navigate(AFTER_CALLBACK, { replace: true });
    })();
    return () => {
      active = false;
    };
  }, [navigate, recoveryInQuery]);

  if (phase === 'failed') {
    return (
      <AuthCard title="Sign In">
        <p role="alert" className="text-slate-700">
          {AUTH_MESSAGES.callbackFailed}
        </p>
        <Link to={paths.signIn.path} className={buttonClasses({ className: 'mt-6 w-full' })}>
          Back to Sign In
        </Link>
      </AuthCard>
    );
  }
  if (phase === 'recovery') {
    return (
      <AuthCard title="Set a New Password">
        <SetNewPasswordForm onDone={() => void navigate(AFTER_CALLBACK, { replace: true })} />
      </AuthCard>
    );
  }
  return <Spinner label="Signing you in" />;
}
