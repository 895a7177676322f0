import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { newPasswordSchema, PASSWORD_CHANGE_MESSAGES, type NewPassword } from './password-rules';
import { serverReason } from './server-reason';
import { useUpdatePassword } from './update-password';

/**
 * The new password + confirmation form of Change Password (/edit-profile) and the reset link's
 * last step: the spec's rules in order, then the update with its toasts. `onUpdated` runs after
 * the success toast (the form is cleared first).
 */
export function useNewPasswordForm(onUpdated?: () => void) {
  const updatePassword = useUpdatePassword();
  const { register, handleSubmit, reset, formState } = useForm<NewPassword>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const submit = handleSubmit((values) => {
    if (updatePassword.isPending) return;
    updatePassword.mutate(values, {
      onSuccess: () => {
        toast.success(PASSWORD_CHANGE_MESSAGES.updated);
        reset();
        onUpdated?.();
      },
      onError: (error) => toast.error(serverReason(error) ?? PASSWORD_CHANGE_MESSAGES.failed),
    });
  });

  return { register, submit, error: formState.errors.confirm?.message, pending: updatePassword.isPending };
}
