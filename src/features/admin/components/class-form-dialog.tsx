import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Field, TextAreaField, TextField } from '@/components/ui/field';
import { controlClasses } from '@/components/ui/field-styles';
import { Modal } from '@/components/ui/modal';
import { TRAINER_NAME } from '@/config/studio';
import type { ClassRow } from '@/lib/supabase';
import { createClasses, updateClass } from '../api/save-classes';
import { ADMIN_MESSAGES } from '../messages';
import {
  CLASS_LIMITS,
  CLASS_TYPES,
  UNLOCK_UNITS,
  classPayload,
  classPayloads,
  classToFormValues,
  emptyClassForm,
  maxCapacityFor,
  validateClassForm,
  type ClassFormErrors,
  type ClassFormValues,
  type UnlockUnit,
} from '../utils/class-form';
import { MAX_OCCURRENCES, REPEAT_LABELS, REPEAT_OPTIONS, occurrenceDates, type Repeat } from '../utils/repeat-occurrences';
import { londonWallClockToUtc } from '../utils/studio-clock';

type Props = {
  /** The class being edited, or null to add a new one. */
  editing: ClassRow | null;
  onClose: () => void;
  onSaved: () => void;
};

/** The Add Class / Edit Class form (spec sections 3 and 5). Rendered inside an open Modal. */
function ClassForm({ editing, onClose, onSaved }: Props) {
  const [values, setValues] = useState<ClassFormValues>(() => (editing ? classToFormValues(editing) : emptyClassForm(TRAINER_NAME)));
  const [errors, setErrors] = useState<ClassFormErrors>({});
  const [saving, setSaving] = useState(false);
  const isEdit = editing !== null;

  function set<K extends keyof ClassFormValues>(key: K, value: ClassFormValues[K]) {
    setValues((prev) => {
      const next = { ...prev, [key]: value };
      // A One-to-One class holds one person: bring the capacity down with the type.
      if (key === 'type' && value === 'One-to-One') next.capacity = String(CLASS_LIMITS.capacityOneToOne);
      return next;
    });
  }

  const repeating = !isEdit && values.repeat !== 'none';
  const occurrences = repeating && values.date && values.repeatUntil >= values.date ? occurrenceDates(values.date, values.repeat, values.repeatUntil).length : 0;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (saving) return;
    const found = validateClassForm(values, isEdit);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Move focus to the first invalid control so keyboard and screen-reader users land on it.
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setSaving(true);
    try {
      if (editing) {
        await updateClass(editing.id, classPayload(values, londonWallClockToUtc(values.date, values.time)));
        toast.success(ADMIN_MESSAGES.classUpdated);
      } else {
        const created = await createClasses(classPayloads(values));
        toast.success(created === 1 ? ADMIN_MESSAGES.classCreated : ADMIN_MESSAGES.classesCreated(created));
      }
      onSaved();
    } catch {
      toast.error(ADMIN_MESSAGES.classSaveFailed);
      setSaving(false);
    }
  }

  const input = (key: keyof ClassFormValues) => ({
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    error: errors[key],
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Class name" name="name" required {...input('name')} />
      <TextAreaField label="Description" name="description" required rows={3} {...input('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Date" name="date" type="date" required {...input('date')} hint="London time" />
        <TextField label="Time" name="time" type="time" required {...input('time')} />
        <TextField
          label="Duration (minutes)"
          name="duration"
          type="number"
          inputMode="numeric"
          min={CLASS_LIMITS.durationMin}
          max={CLASS_LIMITS.durationMax}
          required
          {...input('duration')}
        />
        <TextField label="Trainer" name="trainer" required {...input('trainer')} />
        <Field label="Type" error={errors.type}>
          {(control) => (
            <select {...control} name="type" required value={values.type} onChange={(e) => set('type', e.target.value)} className={controlClasses(Boolean(errors.type))}>
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
          name="capacity"
          type="number"
          inputMode="numeric"
          min={CLASS_LIMITS.capacityMin}
          max={maxCapacityFor(values.type)}
          required
          {...input('capacity')}
        />
        <TextField label="PAYG price (£)" name="pricePayg" type="number" inputMode="decimal" min={0} step="0.01" optional {...input('pricePayg')} />
        <TextField label="Checkout link" name="checkoutUrl" type="url" optional placeholder="https://" {...input('checkoutUrl')} />
      </div>

      <fieldset className="rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-medium text-slate-800">Premium</legend>
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
          <input type="checkbox" checked={values.isPremium} onChange={(e) => set('isPremium', e.target.checked)} className="h-5 w-5 accent-brand-600" />
          Premium class
        </label>
        {values.isPremium && (
          <div className="mt-2 grid grid-cols-2 gap-4">
            <TextField
              label="Opens to other members"
              name="unlockAmount"
              type="number"
              inputMode="numeric"
              min={1}
              hint="before the class starts"
              {...input('unlockAmount')}
            />
            <Field label="Unit">
              {(control) => (
                <select {...control} value={values.unlockUnit} onChange={(e) => set('unlockUnit', e.target.value as UnlockUnit)} className={controlClasses(false)}>
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
              <select {...control} name="repeat" value={values.repeat} onChange={(e) => set('repeat', e.target.value as Repeat)} className={controlClasses(false)}>
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
              name="repeatUntil"
              type="date"
              required
              min={values.date || undefined}
              hint={occurrences > 0 && occurrences <= MAX_OCCURRENCES ? `Creates ${occurrences} ${occurrences === 1 ? 'class' : 'classes'}` : undefined}
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
