import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { sendPasswordReset } from '../api/send-password-reset';
import { validateEmail } from '../lib/credentials-validation';
import { AUTH_MESSAGES } from '../lib/auth-messages';

/** The Reset Password view of /signin: sends a link that opens /auth/callback in recovery mode. */
export function ResetPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: (email: string) => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const { error: resetError } = await sendPasswordReset(email);
      if (resetError) toast.error(AUTH_MESSAGES.resetFailed);
      else toast.success(AUTH_MESSAGES.resetSent);
    } catch {
      toast.error(AUTH_MESSAGES.resetFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-4">
      <p className="text-slate-600">Enter your email and we'll send you a link to choose a new password.</p>
      <TextField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={error} />
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={() => onBack(email)}>
        Back to Sign In
      </Button>
    </form>
  );
}
