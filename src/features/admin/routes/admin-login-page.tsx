import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { STORAGE_KEYS } from '@/lib/browser-storage';
import { AdminSignInError, signInAdmin } from '../api/sign-in-admin';
import { resetErrorMessage, sendAdminPasswordReset } from '../api/send-admin-password-reset';
import { ADMIN_MESSAGES } from '../messages';

const linkClasses = 'text-sm font-medium text-brand-700 underline-offset-4 hover:underline';

function SignInForm({ onForgot }: { onForgot: () => void }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !email || !password) return;
    setBusy(true);
    setError(null);
    try {
      await signInAdmin(email.trim(), password);
      localStorage.setItem(STORAGE_KEYS.adminAuthenticated, 'true');
      toast.success(ADMIN_MESSAGES.welcome);
      void navigate('/admin', { replace: true });
    } catch (err) {
      setError(err instanceof AdminSignInError ? err.message : ADMIN_MESSAGES.loginFailed);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5">
      <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" loading={busy} className="w-full">
        {busy ? 'Signing in...' : 'Sign In'}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button type="button" onClick={onForgot} className={linkClasses}>
          Forgot your password?
        </button>
        <Link to="/" className={linkClasses}>
          Back to Home
        </Link>
      </div>
    </form>
  );
}

function ResetForm({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !email) return;
    setBusy(true);
    try {
      await sendAdminPasswordReset(email.trim());
      toast.success(ADMIN_MESSAGES.resetSent);
    } catch (err) {
      toast.error(resetErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5">
      <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" loading={busy} className="w-full">
        {busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <button type="button" onClick={onBack} className={linkClasses}>
        Back to Sign In
      </button>
    </form>
  );
}

export function AdminLoginPage() {
  const [view, setView] = useState<'sign-in' | 'reset'>('sign-in');
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-900 px-4 py-10">
      <Card className="w-full max-w-md">
        <div className="mb-6 flex items-center gap-3">
          <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 text-brand-700">
            <ShieldCheck aria-hidden="true" className="h-6 w-6" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight">{view === 'sign-in' ? 'Admin Portal' : 'Reset Password'}</h1>
        </div>
        {view === 'sign-in' ? <SignInForm onForgot={() => setView('reset')} /> : <ResetForm onBack={() => setView('sign-in')} />}
      </Card>
    </main>
  );
}
