import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { toast } from '@/lib/toast';

/**
 * The form a settings block hands its fields: react-hook-form's, typed by the schema's input and
 * output, and `field(name)`, a field's registration with its message (`<TextField {...field('x')} />`).
 */
export type SettingsFormApi<TForm extends FieldValues, TValues> = UseFormReturn<TForm, unknown, TValues> & {
  field: (name: Path<TForm>) => UseFormRegisterReturn<Path<TForm>> & { error?: string };
};

type SettingsFormProps<TForm extends FieldValues, TValues, TResult> = {
  /** The form's accessible name ("Pause rules"). */
  label: string;
  schema: z.ZodType<TValues, TForm>;
  /**
   * The saved settings as the form's values. The form takes them whenever they change (the first
   * read, the read again after a save), and not while they are equal to what it already holds.
   */
  values?: TForm;
  /** What a form without saved settings starts from (a create form, or fields a read leaves empty). */
  defaultValues?: DefaultValues<TForm>;
  /** Writes the values; a rejection is the database's refusal, shown by `errorText`. */
  save: (values: TValues) => Promise<TResult>;
  submitLabel: string;
  /** The toast after a save. */
  savedText: string | ((result: TResult, values: TValues) => string);
  /** What a failed save says: each panel maps the database's message (its hint or text) in its own words. */
  errorText: (error: unknown) => string;
  /** After a successful save: a create form clears itself here. */
  onSaved?: (result: TResult, values: TValues, form: SettingsFormApi<TForm, TValues>) => void;
  /** A failure shown on a field rather than as a toast (`form.setError`). */
  onFailed?: (message: string, form: SettingsFormApi<TForm, TValues>) => void;
  /** The status beside the button once the values on screen are the saved ones. */
  doneLabel?: string;
  className?: string;
  children: (form: SettingsFormApi<TForm, TValues>) => ReactNode;
};

/**
 * One settings form (decision 0107): zod validation through react-hook-form, a submit button busy
 * while the save is under way, a toast for the outcome, "Saved" beside the button until the values
 * are changed again, and the database's refusal in the panel's words. The fields are the panel's.
 */
export function SettingsForm<TForm extends FieldValues, TValues, TResult>({
  label,
  schema,
  values,
  defaultValues,
  save,
  submitLabel,
  savedText,
  errorText,
  onSaved,
  onFailed,
  doneLabel = 'Saved',
  className,
  children,
}: SettingsFormProps<TForm, TValues, TResult>) {
  const rhf = useForm<TForm, unknown, TValues>({ resolver: zodResolver(schema), values, defaultValues });
  const form: SettingsFormApi<TForm, TValues> = {
    ...rhf,
    field: (name) => ({ ...rhf.register(name), error: rhf.getFieldState(name, rhf.formState).error?.message }),
  };
  const [saved, setSaved] = useState(false);
  const submit = form.handleSubmit(async (submitted) => {
    setSaved(false);
    const onScreen = form.getValues();
    let result: TResult;
    try {
      result = await save(submitted);
    } catch (error) {
      const message = errorText(error);
      if (onFailed) onFailed(message, form);
      else toast.error(message);
      return;
    }
    toast.success(typeof savedText === 'string' ? savedText : savedText(result, submitted));
    // What is on screen is now what is saved: "Saved" shows until a field changes again.
    form.reset(onScreen, { keepValues: true });
    onSaved?.(result, submitted, form);
    setSaved(true);
  });
  const { isDirty, isSubmitting } = form.formState;
  return (
    <form noValidate aria-label={label} onSubmit={(ev) => void submit(ev)} className={cn('space-y-4', className)}>
      {children(form)}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="text-sm font-medium text-emerald-700">
          {saved && !isDirty && !isSubmitting ? doneLabel : ''}
        </p>
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
