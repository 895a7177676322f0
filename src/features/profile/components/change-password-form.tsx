import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { PASSWORD_TOO_SHORT } from '@/lib/auth/password-rules';
import { useNewPasswordForm } from '@/lib/auth/use-new-password-form';

/** Change Password (spec section 5): both fields, at least 6 characters, matching. */
export function ChangePasswordForm() {
  const { register, submit, error, pending } = useNewPasswordForm();
  return (
    <Card>
      <h2 className="text-lg font-semibold">Change Password</h2>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-4">
        <TextField label="New Password" type="password" autoComplete="new-password" hint={PASSWORD_TOO_SHORT} {...register('password')} />
        <TextField label="Confirm New Password" type="password" autoComplete="new-password" error={error} {...register('confirm')} />
        <Button type="submit" loading={pending}>
          {pending ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </Card>
  );
}
