import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextAreaField, TextField } from '@/components/ui/field';
import { ageOn } from '@/lib/age';
import { studioDayKey } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import { useRemoveDependant, useSaveDependant, type Dependant } from '../api/dependants';
import { childFormSchema, FAMILY_MESSAGES, type ChildFormValues } from '../lib/child-form';

/** The server's own words for a refusal (they carry a hint), otherwise `fallback`. */
const refusalText = (error: Error, fallback: string) =>
  'hint' in error && typeof error.hint === 'string' && error.hint ? error.message : fallback;

type FormProps = { child: Dependant | null; onDone: () => void };

/** Add or edit a child: name, date of birth, medical notes, who may collect them. */
function ChildForm({ child, onDone }: FormProps) {
  const save = useSaveDependant();
  const { register, handleSubmit, formState } = useForm<ChildFormValues>({
    resolver: zodResolver(childFormSchema),
    defaultValues: {
      name: child?.name ?? '',
      dateOfBirth: child?.date_of_birth ?? '',
      medicalNotes: child?.medical_notes ?? '',
      collectedBy: child?.collected_by ?? '',
    },
  });
  const errors = formState.errors;
  const submit = handleSubmit((values) => {
    if (save.isPending) return;
    save.mutate(
      { id: child?.id ?? null, ...values },
      {
        onSuccess: () => {
          toast.success(FAMILY_MESSAGES.saved);
          onDone();
        },
        onError: (error) => toast.error(refusalText(error, FAMILY_MESSAGES.saveFailed)),
      },
    );
  });
  return (
    <form noValidate aria-label={child ? `Edit ${child.name}` : FAMILY_MESSAGES.add} onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Child's name" required error={errors.name?.message} {...register('name')} />
      <TextField label="Date of birth" type="date" required error={errors.dateOfBirth?.message} {...register('dateOfBirth')} />
      <TextAreaField
        label="Medical notes"
        optional
        hint="Allergies, conditions, medication: what the coach should know."
        error={errors.medicalNotes?.message}
        {...register('medicalNotes')}
      />
      <TextField label="Who may collect them" optional error={errors.collectedBy?.message} {...register('collectedBy')} />
      <div className="flex gap-3">
        <Button type="submit" loading={save.isPending}>
          {child ? 'Save' : FAMILY_MESSAGES.add}
        </Button>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

type Props = {
  dependants: Dependant[];
  /** The parent chose to sign the waiver and answer the children's health questions for this child. */
  onSign: (child: Dependant) => void;
};

/** The member's children: add, edit, remove, and whether each is signed for. */
export function FamilyPanel({ dependants, onSign }: Props) {
  const [editing, setEditing] = useState<Dependant | 'new' | null>(null);
  const remove = useRemoveDependant();
  const today = studioDayKey(new Date());

  return (
    <div className="space-y-4">
      {dependants.length === 0 && <p className="text-slate-600">{FAMILY_MESSAGES.empty}</p>}
      <ul className="space-y-3">
        {dependants.map((child) => (
          <li key={child.id}>
            <Card>
              {editing !== null && editing !== 'new' && editing.id === child.id ? (
                <ChildForm child={child} onDone={() => setEditing(null)} />
              ) : (
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 className="text-lg font-semibold">{child.name}</h2>
                    <p className="text-sm text-slate-600">Age {ageOn(child.date_of_birth, today)}</p>
                    {child.collected_by && <p className="text-sm text-slate-600">Collected by: {child.collected_by}</p>}
                    {child.medical_notes && <p className="text-sm text-slate-600">Medical notes: {child.medical_notes}</p>}
                    <p
                      className={
                        child.missing_documents.length === 0 ? 'mt-1 text-sm text-emerald-800' : 'mt-1 text-sm font-medium text-amber-900'
                      }
                    >
                      {child.missing_documents.length === 0 ? FAMILY_MESSAGES.ready : FAMILY_MESSAGES.toSign}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {child.missing_documents.length > 0 && <Button onClick={() => onSign(child)}>Sign for {child.name}</Button>}
                    <Button variant="outline" onClick={() => setEditing(child)}>
                      Edit {child.name}
                    </Button>
                    <Button
                      variant="outline"
                      loading={remove.isPending && remove.variables === child.id}
                      onClick={() =>
                        remove.mutate(child.id, {
                          onSuccess: () => toast.success(FAMILY_MESSAGES.removed),
                          onError: (error) => toast.error(refusalText(error, FAMILY_MESSAGES.removeFailed)),
                        })
                      }
                    >
                      Remove {child.name}
                    </Button>
                  </div>
                </div>
              )}
            </Card>
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <Card>
          <ChildForm child={null} onDone={() => setEditing(null)} />
        </Card>
      ) : (
        <Button onClick={() => setEditing('new')}>{FAMILY_MESSAGES.add}</Button>
      )}
    </div>
  );
}
