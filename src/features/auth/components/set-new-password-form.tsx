import { Button } from '@/components/ui/button';
import { useNewPasswordForm } from '@/lib/auth/use-new-password-form';
import { PasswordField } from './password-field';

/** The recovery link's step: choose a new password (the rules and messages of spec section 5). */
export function SetNewPasswordForm({ onDone }: { onDone: () => void }) {
  const { register, submit, error, pending } = useNewPasswordForm(onDone);
  return (
    <form method="post" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <PasswordField label="New Password" autoComplete="new-password" {...register('password')} />
      <PasswordField label="Confirm New Password" autoComplete="new-password" showHint={false} {...register('confirm')} />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={pending}>
        {pending ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
