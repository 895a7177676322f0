import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { serverReason } from '@/lib/auth/server-reason';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { passwordResetSchema, useSendPasswordReset, type PasswordResetInput } from '../api/send-password-reset';
import { AUTH_MESSAGES } from '../lib/auth-messages';

/** The Reset Password view of /signin: sends a link that opens /auth/callback in recovery mode. */
export function ResetPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: (email: string) => void }) {
  const sendReset = useSendPasswordReset();
  const { register, handleSubmit, control, formState } = useForm<PasswordResetInput>({
    resolver: zodResolver(passwordResetSchema),
    defaultValues: { email: initialEmail },
  });
  const email = useWatch({ control, name: 'email' });

  const submit = handleSubmit((values) => {
    if (sendReset.isPending) return;
    sendReset.mutate(values, {
      onSuccess: () => toast.success(AUTH_MESSAGES.resetSent),
      // Asked again within a minute, say so (the first link is on its way), else the spec's words.
      onError: (error) => toast.error(serverReason(error) ?? AUTH_MESSAGES.resetFailed),
    });
  });

  return (
    <form method="post" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <p className="text-slate-600">Enter your email and we'll send you a link to choose a new password.</p>
      <TextField label="Email" type="email" autoComplete="email" required error={formState.errors.email?.message} {...register('email')} />
      <Button type="submit" size="lg" className="w-full" loading={sendReset.isPending}>
        {sendReset.isPending ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={() => onBack(email)}>
        Back to Sign In
      </Button>
    </form>
  );
}
