import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { validateCredentials, type CredentialErrors } from '../lib/credentials-validation';
import { PasswordField } from './password-field';

export type Credentials = { email: string; password: string; fullName: string };

type Props = {
  /** Show the full name field; `requireName` makes it required (the trial sign-up). */
  withName?: boolean;
  requireName?: boolean;
  initialEmail?: string;
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: Credentials) => Promise<void>;
};

/**
 * Email + password (+ full name) with the validation of spec section 5. The form validates itself
 * (noValidate) so the messages are the same in every browser and announced with the field.
 */
export function CredentialsForm({ label, withName = false, requireName = false, initialEmail = '', submitLabel, busyLabel, onSubmit }: Props) {
  const [values, setValues] = useState<Credentials>({ email: initialEmail, password: '', fullName: '' });
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [busy, setBusy] = useState(false);

  const set = (key: keyof Credentials) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = validateCredentials(values, { requireName });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form aria-label={label} noValidate onSubmit={handleSubmit} className="space-y-4">
      {withName && (
        <TextField
          label="Full Name"
          name="fullName"
          autoComplete="name"
          required={requireName}
          optional={!requireName}
          value={values.fullName}
          onChange={set('fullName')}
          error={errors.fullName}
        />
      )}
      <TextField label="Email" name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} error={errors.email} />
      <PasswordField
        name="password"
        autoComplete={withName ? 'new-password' : 'current-password'}
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
