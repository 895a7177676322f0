import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { newPasswordSchema, PASSWORD_CHANGE_MESSAGES, PASSWORD_TOO_SHORT, type NewPassword } from '@/lib/auth/password-rules';
import { useUpdatePassword } from '@/lib/auth/update-password';

/** Change Password (spec section 5): both fields, at least 6 characters, matching. */
export function ChangePasswordForm() {
  const updatePassword = useUpdatePassword();
  const { register, handleSubmit, reset, formState } = useForm<NewPassword>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', confirm: '' } });

  const submit = handleSubmit((values) => {
    if (updatePassword.isPending) return;
    updatePassword.mutate(values, {
      onSuccess: () => {
        toast.success(PASSWORD_CHANGE_MESSAGES.updated);
        reset();
      },
      onError: () => toast.error(PASSWORD_CHANGE_MESSAGES.failed),
    });
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold">Change Password</h2>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-4">
        <TextField label="New Password" type="password" autoComplete="new-password" hint={PASSWORD_TOO_SHORT} {...register('password')} />
        <TextField label="Confirm New Password" type="password" autoComplete="new-password" error={formState.errors.confirm?.message} {...register('confirm')} />
        <Button type="submit" loading={updatePassword.isPending}>
          {updatePassword.isPending ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </Card>
  );
}
