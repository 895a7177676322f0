import type { InputHTMLAttributes } from 'react';
import { TextField } from '@/components/ui/field';
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '@/lib/auth/password-rules';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label?: string; error?: string; showHint?: boolean };

/** A password input with the spec's length rule as its hint (spec section 5). */
export function PasswordField({ label = 'Password', error, showHint = true, ...input }: Props) {
  return (
    <TextField
      label={label}
      type="password"
      required
      minLength={MIN_PASSWORD_LENGTH}
      hint={showHint && !error ? PASSWORD_TOO_SHORT : undefined}
      error={error}
      {...input}
    />
  );
}
