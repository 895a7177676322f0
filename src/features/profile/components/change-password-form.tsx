import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { changePassword } from '../api/change-password';
import { passwordChangeError, PROFILE_MESSAGES } from '../lib/profile-rules';

export function ChangePasswordForm() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = passwordChangeError(password, confirm);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await changePassword(password);
      toast.success(PROFILE_MESSAGES.passwordUpdated);
      setPassword('');
      setConfirm('');
    } catch {
      toast.error(PROFILE_MESSAGES.passwordFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold">Change Password</h2>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 space-y-4">
        <TextField
          label="New Password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          value={password}
          hint="Password must be at least 6 characters long"
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          label="Confirm New Password"
          name="confirm-password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          error={error}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <Button type="submit" loading={saving}>
          {saving ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </Card>
  );
}
