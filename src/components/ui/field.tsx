import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';
import { controlClasses } from './field-styles';

// Re-exported so `import { controlClasses } from '@/components/ui/field'` keeps working.
// eslint-disable-next-line react-refresh/only-export-components -- a class helper; HMR of this file reloads instead
export { controlClasses } from './field-styles';

/** Ids and ARIA a form control needs to be tied to its label, hint and error. */
export type ControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FieldProps = {
  label: ReactNode;
  /** Shown under the control in red and announced with it; the control is marked invalid. */
  error?: string | null;
  hint?: ReactNode;
  /** Adds "(optional)" after the label. */
  optional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
};

/** Label, control, hint and error wired together; the control is rendered by `children`. */
export function Field({ label, error, hint, optional = false, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

type Common = Omit<FieldProps, 'children'>;

export function TextField({ label, error, hint, optional, className, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} error={error} hint={hint} optional={optional} className={className}>
      {(control) => <input {...input} {...control} className={controlClasses(Boolean(error))} />}
    </Field>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  optional,
  className,
  ...textarea
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} error={error} hint={hint} optional={optional} className={className}>
      {(control) => <textarea rows={4} {...textarea} {...control} className={controlClasses(Boolean(error))} />}
    </Field>
  );
}
