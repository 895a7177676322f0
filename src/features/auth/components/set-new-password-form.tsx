import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { newPasswordSchema, PASSWORD_CHANGE_MESSAGES, type NewPassword } from '@/lib/auth/password-rules';
import { useUpdatePassword } from '@/lib/auth/update-password';
import { PasswordField } from './password-field';

/** The recovery link's step: choose a new password (the rules and messages of spec section 5). */
export function SetNewPasswordForm({ onDone }: { onDone: () => void }) {
  const updatePassword = useUpdatePassword();
  const { register, handleSubmit, formState } = useForm<NewPassword>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', confirm: '' } });
  const error = formState.errors.confirm?.message;

  const submit = handleSubmit((values) => {
    if (updatePassword.isPending) return;
    updatePassword.mutate(values, {
      onSuccess: () => {
        toast.success(PASSWORD_CHANGE_MESSAGES.updated);
        onDone();
      },
      onError: () => toast.error(PASSWORD_CHANGE_MESSAGES.failed),
    });
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <PasswordField label="New Password" autoComplete="new-password" {...register('password')} />
      <PasswordField label="Confirm New Password" autoComplete="new-password" showHint={false} {...register('confirm')} />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={updatePassword.isPending}>
        {updatePassword.isPending ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
