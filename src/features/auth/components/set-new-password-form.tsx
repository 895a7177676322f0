import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { PASSWORD_CHANGE_MESSAGES, passwordChangeError } from '@/lib/auth/password-rules';
import { updatePassword } from '../api/update-password';
import { PasswordField } from './password-field';

/** The recovery link's step: choose a new password (the rules and messages of spec section 5). */
export function SetNewPasswordForm({ onDone }: { onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const broken = passwordChangeError(password, confirmation);
    setError(broken);
    if (broken) return;
    setBusy(true);
    try {
      const { error: updateError } = await updatePassword(password);
      if (updateError) {
        toast.error(PASSWORD_CHANGE_MESSAGES.failed);
        return;
      }
      toast.success(PASSWORD_CHANGE_MESSAGES.updated);
      onDone();
    } catch {
      toast.error(PASSWORD_CHANGE_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-4">
      <PasswordField label="New Password" name="new-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <PasswordField
        label="Confirm New Password"
        name="confirm-password"
        autoComplete="new-password"
        showHint={false}
        value={confirmation}
        onChange={(e) => setConfirmation(e.target.value)}
      />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {busy ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
