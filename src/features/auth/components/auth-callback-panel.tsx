import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { Button, buttonClasses } from '@/components/ui/button';
import { rememberEmail } from '@/lib/browser-storage';
import { ensureMember } from '@/lib/auth/ensure-member';
import { paths } from '@/config/paths';
import { completeEmailLink } from '../api/complete-email-link';
import { readCallbackLink, type CallbackFailure, type LinkPurpose } from '../lib/callback-link';
import { signInViewHref } from '../lib/sign-in-views';
import { AuthCard } from './auth-card';
import { SetNewPasswordForm } from './set-new-password-form';
import { CALLBACK_MESSAGES, TRIAL_MESSAGES } from '../lib/auth-messages';

const AFTER_CALLBACK = paths.mySchedule;

type Phase = { step: 'working' } | { step: 'recovery' } | { step: 'change-pending' } | { step: 'failed'; failure: CallbackFailure };

const TITLES: Record<LinkPurpose, string> = { signup: 'Sign In', recovery: 'Reset Password', email_change: 'Change Email' };

/**
 * /auth/callback: where confirmation, reset and email-change links land. A link of the current
 * emails (`?token_hash=…&type=…`) is verified here, so it works in any browser; an older `?code=`
 * link only in the browser that asked. Once signed in it stores the email, makes sure the member
 * row exists (a failure is only logged), then goes to /my-schedule; a recovery link asks for a new
 * password first. A link that does not sign in says why, and how to get a new one.
 */
export function AuthCallbackPanel() {
  const navigate = useNavigate();
  const location = useLocation();
  // Read once: the URL is tidied after a reset link is verified, and a token works only once.
  const [link] = useState(() => readCallbackLink(location.search, location.hash));
  const [attempt, setAttempt] = useState(0);
  const [phase, setPhase] = useState<Phase>({ step: 'working' });

  useEffect(() => {
    let active = true;
    void (async () => {
      const result = await completeEmailLink(link);
      if (!active) return;
      if (result.status === 'failed') return setPhase({ step: 'failed', failure: result.failure });
      if (result.status === 'change-pending') return setPhase({ step: 'change-pending' });
      if (result.session.user.email) rememberEmail(result.session.user.email);
      const member = await ensureMember();
      if (!active) return;
      // A free-trial sign-up whose email had its trial before is told so now that its owner has
      // confirmed it, never on /free-trial to whoever typed the address.
      if (
        link.purpose === 'signup' &&
        result.session.user.user_metadata.signup_source === 'free-trial' &&
        member?.membershipTier === 'payg'
      ) {
        toast(TRIAL_MESSAGES.trialUsedBefore);
        return void navigate(paths.membership, { replace: true });
      }
      if (!result.recovery) return void navigate(AFTER_CALLBACK, { replace: true });
      // A reload of the new-password step must not spend the (used) token again.
      if (link.kind === 'token-hash') void navigate(`${paths.authCallback}?type=recovery`, { replace: true });
      setPhase({ step: 'recovery' });
    })();
    return () => {
      active = false;
    };
  }, [link, attempt, navigate]);

  if (phase.step === 'recovery') {
    return (
      <AuthCard title="Set a New Password">
        <SetNewPasswordForm onDone={() => void navigate(AFTER_CALLBACK, { replace: true })} />
      </AuthCard>
    );
  }
  if (phase.step === 'change-pending') {
    return (
      <AuthCard title={TITLES.email_change}>
        <p role="status" className="text-slate-700">
          {CALLBACK_MESSAGES.changePending}
        </p>
        <BackToSignIn primary />
      </AuthCard>
    );
  }
  if (phase.step === 'failed') {
    return (
      <FailedLink
        failure={phase.failure}
        onRetry={() => {
          setPhase({ step: 'working' });
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <Spinner label="Signing you in" />;
}

function BackToSignIn({ primary = false, label = 'Back to Sign In' }: { primary?: boolean; label?: string }) {
  return (
    <Link
      to={paths.signIn.path}
      className={buttonClasses({ variant: primary ? undefined : 'ghost', className: primary ? 'mt-6 w-full' : 'mt-2 w-full' })}
    >
      {label}
    </Link>
  );
}

/** A link to a fresh one: Reset Password for a reset link, Create Account for a confirmation. */
function RequestNewLink({ purpose }: { purpose: LinkPurpose }) {
  if (purpose === 'email_change') return null;
  return (
    <Link to={signInViewHref(purpose === 'recovery' ? 'reset' : 'signup')} className={buttonClasses({ className: 'mt-6 w-full' })}>
      Request a New Link
    </Link>
  );
}

function Explained({ title, alert, help, children }: { title: string; alert: string; help?: string; children: ReactNode }) {
  return (
    <AuthCard title={title}>
      <p role="alert" className="font-semibold text-slate-900">
        {alert}
      </p>
      {help && <p className="mt-2 text-sm text-slate-600">{help}</p>}
      {children}
    </AuthCard>
  );
}

function FailedLink({ failure, onRetry }: { failure: CallbackFailure; onRetry: () => void }) {
  switch (failure.reason) {
    case 'expired':
      return (
        <Explained title={TITLES[failure.purpose]} alert={CALLBACK_MESSAGES.expired} help={CALLBACK_MESSAGES.expiredHelp[failure.purpose]}>
          <RequestNewLink purpose={failure.purpose} />
          <BackToSignIn primary={failure.purpose === 'email_change'} />
        </Explained>
      );
    case 'other-browser':
      // A confirmation link did its work before it landed here: the address is confirmed.
      if (failure.purpose === 'signup') {
        return (
          <AuthCard title={TITLES.signup}>
            <p role="status" className="font-semibold text-slate-900">
              {CALLBACK_MESSAGES.otherBrowser.signup}
            </p>
            <BackToSignIn primary label="Sign In" />
          </AuthCard>
        );
      }
      return (
        <Explained title={TITLES[failure.purpose]} alert={CALLBACK_MESSAGES.otherBrowser[failure.purpose]}>
          <RequestNewLink purpose={failure.purpose} />
          <BackToSignIn primary={failure.purpose === 'email_change'} />
        </Explained>
      );
    case 'incomplete':
      return (
        <Explained title={TITLES[failure.purpose]} alert={CALLBACK_MESSAGES.incomplete}>
          <RequestNewLink purpose={failure.purpose} />
          <BackToSignIn primary={failure.purpose === 'email_change'} />
        </Explained>
      );
    case 'offline':
    case 'rate-limited':
      return (
        <Explained title={TITLES.signup} alert={failure.reason === 'offline' ? CALLBACK_MESSAGES.offline : CALLBACK_MESSAGES.rateLimited}>
          <Button size="lg" className="mt-6 w-full" onClick={onRetry}>
            Try Again
          </Button>
          <BackToSignIn />
        </Explained>
      );
    default:
      return (
        <AuthCard title={TITLES.signup}>
          <p role="alert" className="text-slate-700">
            {CALLBACK_MESSAGES.failed}
          </p>
          <BackToSignIn primary />
        </AuthCard>
      );
  }
}
