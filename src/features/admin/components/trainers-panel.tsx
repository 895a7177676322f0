import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, UserRound } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { trainerFormSchema, useSaveTrainer, useTrainers, type Trainer, type TrainerForm } from '../api/trainers';
import { AvailabilityPanel } from './availability-panel';
import { CoachAccountsPanel } from './coach-accounts-panel';
import { CoachPayPanel } from './coach-pay-panel';
import { EmptyState } from './empty-state';
import { TablePanel } from './table-panel';

/** The database's refusal of a second trainer with the same name, in the admin's words. */
function saveError(error: Error & { code?: string }): string {
  if (error.code === '23505') return 'A trainer with this name already exists.';
  return error.message || 'Could not save the trainer. Please try again.';
}

/**
 * Trainers: each a record with a name, a short bio and a photo. Classes name their
 * trainer; renaming one here renames their classes on the timetable.
 */
export function TrainersPanel() {
  const trainers = useTrainers();
  const [editing, setEditing] = useState<Trainer | null>(null);
  return (
    <>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <TrainerFormCard key={editing?.id ?? 'new'} trainer={editing} onDone={() => setEditing(null)} />
        <TablePanel className="lg:col-span-2">
          {trainers.isPending && <Spinner label="Loading trainers" />}
          {trainers.isError && <EmptyState title="Could not load the trainers" body="Refresh the page to try again." />}
          {trainers.data?.length === 0 && <EmptyState title="No trainers yet" body="Add the studio's first trainer." />}
          {trainers.data && trainers.data.length > 0 && (
            <ul aria-label="Trainers" className="divide-y divide-slate-100">
              {trainers.data.map((t) => (
                <li key={t.id} className="flex items-start gap-3 px-4 py-3">
                  {t.photo_url ? (
                    <img src={t.photo_url} alt="" className="h-12 w-12 shrink-0 rounded-full object-cover" />
                  ) : (
                    <UserRound aria-hidden="true" className="h-12 w-12 shrink-0 rounded-full bg-slate-100 p-2 text-slate-400" />
                  )}
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-slate-900">{t.name}</p>
                    <p className="text-sm text-slate-600">{t.bio || 'No bio yet'}</p>
                  </div>
                  <Button variant="outline" size="sm" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
                    <Pencil aria-hidden="true" className="h-4 w-4" />
                    Edit
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </TablePanel>
      </div>
      {trainers.data && trainers.data.length > 0 && <AvailabilityPanel trainers={trainers.data} />}
      {trainers.data && trainers.data.length > 0 && <CoachAccountsPanel trainers={trainers.data} />}
      {trainers.data && trainers.data.length > 0 && <CoachPayPanel trainers={trainers.data} />}
    </>
  );
}

function TrainerFormCard({ trainer, onDone }: { trainer: Trainer | null; onDone: () => void }) {
  const save = useSaveTrainer();
  const { register, handleSubmit, reset, formState } = useForm<TrainerForm>({
    resolver: zodResolver(trainerFormSchema),
    defaultValues: {
      name: trainer?.name ?? '',
      bio: trainer?.bio ?? '',
      photoUrl: trainer?.photo_url ?? '',
    },
  });
  const submit = handleSubmit((values) =>
    save.mutate(
      { ...values, id: trainer?.id ?? null },
      {
        onSuccess: () => {
          toast.success(trainer ? 'Trainer updated' : 'Trainer added');
          reset({ name: '', bio: '', photoUrl: '' });
          onDone();
        },
        onError: (error) => toast.error(saveError(error)),
      },
    ),
  );
  const title = trainer ? `Edit ${trainer.name}` : 'Add a trainer';
  return (
    <form
      noValidate
      aria-label={title}
      onSubmit={(e) => void submit(e)}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <TextField label="Name" required error={formState.errors.name?.message} {...register('name')} />
      <TextAreaField label="Short bio" optional error={formState.errors.bio?.message} {...register('bio')} />
      <TextField label="Photo URL" optional placeholder="https://…" error={formState.errors.photoUrl?.message} {...register('photoUrl')} />
      <div className="flex gap-2">
        <Button type="submit" loading={save.isPending} className="flex-1">
          {save.isPending ? 'Saving...' : trainer ? 'Save Trainer' : 'Add Trainer'}
        </Button>
        {trainer && (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
