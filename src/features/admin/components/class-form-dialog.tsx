import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Field, TextAreaField, TextField } from '@/components/ui/field';
import { controlClasses } from '@/components/ui/field-styles';
import { Modal } from '@/components/ui/modal';
import { STUDIO, TRAINER_NAME } from '@/config/studio';
import type { ClassRow } from '@/lib/supabase';
import { useMeetingPoints } from '../api/meeting-points';
import { classFormSchema, classSaveRefusal, useSaveClass } from '../api/save-classes';
import { useTrainers } from '../api/trainers';
import { ADMIN_MESSAGES } from '../lib/messages';
import {
  CLASS_LIMITS,
  CLASS_TYPES,
  UNLOCK_UNITS,
  classToFormValues,
  emptyClassForm,
  maxCapacityFor,
  type ClassFormValues,
} from '../lib/class-form';
import { MAX_OCCURRENCES, REPEAT_LABELS, REPEAT_OPTIONS, occurrenceDates } from '../lib/repeat-occurrences';

/** The trainers' names, with the class's current trainer kept when it has no record yet. */
function trainerNames(trainers: { name: string }[] | undefined, current: string | undefined): string[] {
  const names = (trainers ?? []).map((t) => t.name);
  return current && !names.includes(current) ? [current, ...names] : names;
}

type Props = {
  /** The class being edited, or null to add a new one. */
  editing: ClassRow | null;
  onClose: () => void;
  onSaved: () => void;
};

/** The Add Class / Edit Class form (spec sections 3 and 5). Rendered inside an open Modal. */
function ClassForm({ editing, onClose, onSaved }: Props) {
  const isEdit = editing !== null;
  const saveClass = useSaveClass();
  const { register, handleSubmit, control, setValue, setError, formState } = useForm<ClassFormValues>({
    resolver: zodResolver(classFormSchema(isEdit)),
    defaultValues: editing ? classToFormValues(editing) : emptyClassForm(TRAINER_NAME),
  });
  const { errors } = formState;
  const trainers = useTrainers();
  const values = useWatch({ control }) as ClassFormValues;
  const saving = saveClass.isPending;
  const meetingPoints = useMeetingPoints();

  const repeating = !isEdit && values.repeat !== 'none';
  const occurrences =
    repeating && values.date && values.repeatUntil >= values.date
      ? occurrenceDates(values.date, values.repeat, values.repeatUntil).length
      : 0;

  // The form's values go to the save, which parses them with the same schema and makes one row per occurrence.
  const submit = handleSubmit((formValues) => {
    if (saving) return;
    saveClass.mutate(
      { editing, values: formValues },
      {
        onSuccess: (created) => {
          toast.success(
            isEdit ? ADMIN_MESSAGES.classUpdated : created === 1 ? ADMIN_MESSAGES.classCreated : ADMIN_MESSAGES.classesCreated(created),
          );
          onSaved();
        },
        onError: (error) => {
          const refusal = classSaveRefusal(error);
          if (refusal.field) setError(refusal.field, { message: refusal.message }, { shouldFocus: true });
          toast.error(refusal.message);
        },
      },
    );
  });

  const input = (key: keyof ClassFormValues) => ({ ...register(key), error: errors[key]?.message });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Class name" required {...input('name')} />
      <TextAreaField label="Description" required rows={3} {...input('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Date" type="date" required {...input('date')} hint="London time" />
        <TextField label="Time" type="time" required {...input('time')} />
        <TextField
          label="Duration (minutes)"

          type="number"
          inputMode="numeric"
          min={CLASS_LIMITS.durationMin}
          max={CLASS_LIMITS.durationMax}
          required
          {...input('duration')}
        />
        {/* A choice from the trainers' records (decision 0020: free text made a new trainer of every typo);
            classes.trainer_id follows the name (private.classes_link_trainer). */}
        <Field label="Trainer" error={errors.trainer?.message}>
          {(control) => (
            <select {...control} required {...register('trainer')} className={controlClasses(Boolean(errors.trainer))}>
              <option value="">{trainers.isPending ? 'Loading trainers…' : 'Choose a trainer'}</option>
              {trainerNames(trainers.data, values.trainer).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Type" error={errors.type?.message}>
          {(control) => (
            <select
              {...control}
              required
              {...register('type', {
                // A One-to-One class holds one person: bring the capacity down with the type.
                onChange: (e: { target: { value: string } }) => {
                  if (e.target.value === 'One-to-One') setValue('capacity', String(CLASS_LIMITS.capacityOneToOne));
                },
              })}
              className={controlClasses(Boolean(errors.type))}
            >
              {CLASS_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Capacity"

          type="number"
          inputMode="numeric"
          min={CLASS_LIMITS.capacityMin}
          max={maxCapacityFor(values.type)}
          required
          {...input('capacity')}
        />
        <TextField label="PAYG price (£)" type="number" inputMode="decimal" min={0} step="0.01" optional {...input('pricePayg')} />
        <TextField
          label="Children from age"
          type="number"
          inputMode="numeric"
          min={0}
          max={99}
          optional
          hint="Leave both ages blank for an adults-only class."
          {...input('minAge')}
        />
        <TextField label="Children up to age" type="number" inputMode="numeric" min={0} max={99} optional {...input('maxAge')} />
        <TextField label="Checkout link" type="url" optional placeholder="https://" {...input('checkoutUrl')} />
        <Field label="Meets at" hint="Add places on Settings." error={errors.meetingPointId?.message}>
          {(control) => (
            // Controlled: the list arrives after the form, and the class's point must stay chosen.
            <select
              {...control}
              value={values.meetingPointId ?? ''}
              onChange={(e) => setValue('meetingPointId', e.target.value, { shouldDirty: true })}
              className={controlClasses(Boolean(errors.meetingPointId))}
            >
              <option value="">{STUDIO.hall}</option>
              {meetingPoints.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
              {/* The class's point while the list loads, so the edit form never shows the hall instead. */}
              {!meetingPoints.data && values.meetingPointId && <option value={values.meetingPointId}>Loading…</option>}
            </select>
          )}
        </Field>
      </div>

      <fieldset className="rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-medium text-slate-800">Premium</legend>
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
          <input type="checkbox" {...register('isPremium')} className="h-5 w-5 accent-brand-600" />
          Premium class
        </label>
        {values.isPremium && (
          <div className="mt-2 grid grid-cols-2 gap-4">
            <TextField
              label="Opens to other members"

              type="number"
              inputMode="numeric"
              min={1}
              hint="before the class starts"
              {...input('unlockAmount')}
            />
            <Field label="Unit">
              {(control) => (
                <select {...control} {...register('unlockUnit')} className={controlClasses(false)}>
                  {UNLOCK_UNITS.map((unit) => (
                    <option key={unit} value={unit}>
                      {unit}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
      </fieldset>

      {!isEdit && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Repeat">
            {(control) => (
              <select {...control} {...register('repeat')} className={controlClasses(false)}>
                {REPEAT_OPTIONS.map((option) => (
                  <option key={option} value={option}>
                    {REPEAT_LABELS[option]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {repeating && (
            <TextField
              label="Repeat until"

              type="date"
              required
              min={values.date || undefined}
              hint={
                occurrences > 0 && occurrences <= MAX_OCCURRENCES
                  ? `Creates ${occurrences} ${occurrences === 1 ? 'class' : 'classes'}`
                  : undefined
              }
              {...input('repeatUntil')}
            />
          )}
        </div>
      )}

      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          {isEdit ? 'Update Class' : 'Create Class'}
        </Button>
      </div>
    </form>
  );
}

export function ClassFormDialog({ open, ...props }: Props & { open: boolean }) {
  return (
    <Modal open={open} onClose={props.onClose} title={props.editing ? 'Edit Class' : 'Add Class'} className="max-w-2xl">
      <ClassForm {...props} />
    </Modal>
  );
}
