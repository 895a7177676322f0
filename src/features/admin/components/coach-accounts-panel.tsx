import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Field, TextField, controlClasses } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import {
  linkAccountError,
  linkAccountSchema,
  useLinkTrainerAccount,
  useTrainerAccounts,
  useUnlinkTrainerAccount,
  type LinkAccountForm,
} from '../api/trainer-accounts';
import type { Trainer } from '../api/trainers';

/**
 * Coach accounts (decision 0027): link a trainer to the account the coach signs in with. A coach
 * sees only the classes that trainer teaches (rosters, register, check-in): no money, no member
 * list, no analytics, and never admin rights.
 */
export function CoachAccountsPanel({ trainers }: { trainers: Trainer[] }) {
  const accounts = useTrainerAccounts();
  const link = useLinkTrainerAccount();
  const unlink = useUnlinkTrainerAccount();
  const { register, handleSubmit, reset, formState } = useForm<LinkAccountForm>({
    resolver: zodResolver(linkAccountSchema),
    defaultValues: { trainerId: trainers[0]?.id ?? '', email: '' },
  });
  const submit = handleSubmit((values) =>
    link.mutate(values, {
      onSuccess: () => {
        toast.success('Account linked: the coach sees their classes at /coach');
        reset({ trainerId: values.trainerId, email: '' });
      },
      onError: (error) => toast.error(linkAccountError(error)),
    }),
  );
  const byTrainer = new Map((accounts.data ?? []).map((a) => [a.trainer_id, a]));

  return (
    <section aria-labelledby="coach-accounts-heading" className="mt-8 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="coach-accounts-heading" className="text-lg font-semibold text-slate-900">
        Coach sign-in
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The coach creates an account (Sign In, Create Account) and you link it to their trainer record. They then see only their own
        classes: the roster, the register with emergency contacts and health flags, and check-in.
      </p>
      {accounts.isPending && <Spinner label="Loading coach accounts" />}
      {accounts.isError && <p className="mt-2 text-sm text-red-700">Could not load the coach accounts.</p>}
      {accounts.data && (
        <ul aria-label="Coach accounts" className="mt-3 divide-y divide-slate-100">
          {trainers.map((t) => {
            const account = byTrainer.get(t.id);
            return (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-semibold">{t.name}</span>:{' '}
                  <span className="text-slate-600">{account ? account.email : 'No sign-in account'}</span>
                </span>
                {account && (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Unlink ${account.email} from ${t.name}`}
                    loading={unlink.isPending && unlink.variables === t.id}
                    onClick={() =>
                      unlink.mutate(t.id, {
                        onSuccess: () => toast.success('Account unlinked'),
                        onError: () => toast.error('Could not unlink the account. Please try again.'),
                      })
                    }
                  >
                    Unlink
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <form
        noValidate
        aria-label="Link a coach account"
        onSubmit={(e) => void submit(e)}
        className="mt-4 grid gap-3 sm:grid-cols-3 sm:items-end"
      >
        <Field label="Trainer" error={formState.errors.trainerId?.message}>
          {(control) => (
            <select {...control} {...register('trainerId')} className={controlClasses(false)}>
              {trainers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField label="Coach's email" type="email" autoComplete="off" error={formState.errors.email?.message} {...register('email')} />
        <Button type="submit" loading={link.isPending}>
          Link account
        </Button>
      </form>
    </section>
  );
}
