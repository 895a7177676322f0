import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { MARKETING_CONSENT_HINT, MARKETING_CONSENT_WORDING } from '@/config/consent';
import { signInSchema } from '../api/sign-in';
import { signUpSchema, trialSignUpSchema, type SignUpInput } from '../api/sign-up';
import { PasswordField } from './password-field';

export type Credentials = SignUpInput;

/** Which request the form feeds: its schema is the one that request parses. */
const SCHEMAS = { signin: signInSchema, signup: signUpSchema, trial: trialSignUpSchema } as const;
type CredentialsKind = keyof typeof SCHEMAS;

type Props = {
  kind: CredentialsKind;
  initialEmail?: string;
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: (values: Credentials) => void;
};

/**
 * Email + password (+ full name when signing up) with the validation of spec section 5. The
 * form validates itself (noValidate) so the messages are the same in every browser and announced
 * with the field.
 */
export function CredentialsForm({ kind, label, initialEmail = '', submitLabel, busyLabel, busy, onSubmit }: Props) {
  const withName = kind !== 'signin';
  const { register, handleSubmit, formState } = useForm<Credentials>({
    // The sign-in schema has no full name; its field is simply not rendered then.
    resolver: zodResolver(SCHEMAS[kind]) as Resolver<Credentials>,
    defaultValues: { fullName: '', email: initialEmail, password: '', marketingOptIn: false },
  });
  const { errors } = formState;
  const submit = handleSubmit((values) => {
    if (!busy) onSubmit(values);
  });

  return (
    <form aria-label={label} method="post" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      {withName && (
        <TextField
          label="Full Name"
          autoComplete="name"
          required={kind === 'trial'}
          optional={kind !== 'trial'}
          error={errors.fullName?.message}
          {...register('fullName')}
        />
      )}
      <TextField label="Email" type="email" autoComplete="email" required error={errors.email?.message} {...register('email')} />
      <PasswordField
        autoComplete={withName ? 'new-password' : 'current-password'}
        error={errors.password?.message}
        {...register('password')}
      />
      {withName && (
        // Unticked: news and offers only with the person's own yes (UK PECR); service emails need none.
        <label className="flex cursor-pointer items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
            aria-describedby="marketing-consent-hint"
            {...register('marketingOptIn')}
          />
          <span>
            <span className="font-medium text-slate-900">{MARKETING_CONSENT_WORDING}</span>
            <span id="marketing-consent-hint" className="block text-slate-600">
              {MARKETING_CONSENT_HINT}
            </span>
          </span>
        </label>
      )}
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
