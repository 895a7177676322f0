import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { STORAGE_KEYS } from '@/lib/browser-storage';
import { AdminSignInError, adminSignInSchema, useSignInAdmin, type AdminSignIn } from '../api/sign-in-admin';
import { adminResetSchema, resetErrorMessage, useSendAdminPasswordReset, type AdminReset } from '../api/send-admin-password-reset';
import { ADMIN_MESSAGES } from '../lib/messages';

const linkClasses = 'text-sm font-medium text-brand-700 underline-offset-4 hover:underline';

export function AdminSignInForm({ onForgot }: { onForgot: () => void }) {
  const navigate = useNavigate();
  const signIn = useSignInAdmin();
  const { register, handleSubmit, formState } = useForm<AdminSignIn>({
    resolver: zodResolver(adminSignInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = formState;
  // Busy from submit until the admin screens take over (a success keeps the button busy while navigating).
  const busy = signIn.isPending || signIn.isSuccess;

  const submit = handleSubmit((values) => {
    if (busy) return;
    signIn.mutate(values, {
      onSuccess: () => {
        localStorage.setItem(STORAGE_KEYS.adminAuthenticated, 'true');
        toast.success(ADMIN_MESSAGES.welcome);
        void navigate(paths.admin.classes, { replace: true });
      },
    });
  });
  const refusal = signIn.error ? (signIn.error instanceof AdminSignInError ? signIn.error.message : ADMIN_MESSAGES.loginFailed) : null;

  return (
    <form method="post" noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      <TextField label="Email" type="email" autoComplete="username" required error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.password?.message}
        {...register('password')}
      />
      {refusal && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
          {refusal}
        </p>
      )}
      <Button type="submit" loading={busy} className="w-full">
        {busy ? 'Signing in...' : 'Sign In'}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button type="button" onClick={onForgot} className={linkClasses}>
          Forgot your password?
        </button>
        <Link to={paths.home} className={linkClasses}>
          Back to Home
        </Link>
      </div>
    </form>
  );
}

export function AdminResetForm({ onBack }: { onBack: () => void }) {
  const sendReset = useSendAdminPasswordReset();
  const { register, handleSubmit, formState } = useForm<AdminReset>({
    resolver: zodResolver(adminResetSchema),
    defaultValues: { email: '' },
  });

  const submit = handleSubmit((values) => {
    if (sendReset.isPending) return;
    sendReset.mutate(values, {
      onSuccess: () => toast.success(ADMIN_MESSAGES.resetSent),
      onError: (error) => toast.error(resetErrorMessage(error)),
    });
  });

  return (
    <form method="post" noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        required
        error={formState.errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" loading={sendReset.isPending} className="w-full">
        {sendReset.isPending ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <button type="button" onClick={onBack} className={linkClasses}>
        Back to Sign In
      </button>
    </form>
  );
}
