import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Field, TextField, controlClasses } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import {
  oneOffFormSchema,
  useAvailability,
  usePublishSessions,
  useWriteAvailability,
  weeklyFormSchema,
  type OneOffForm,
  type UncoveredSession,
  type WeeklyForm,
} from '../api/availability';
import type { Trainer } from '../api/trainers';
import { formatInLondon, londonToday } from '@/lib/studio-calendar';
import { RowDangerButton } from './row-danger-button';

/** ISO weekdays, Monday = 1. */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const hhmm = (time: string) => time.slice(0, 5);

/**
 * A trainer's availability for One-to-One sessions: weekly windows and one-off
 * sessions. Publish makes the coming four weeks' sessions now (the hourly jobs keep them coming);
 * members book them under Personal training, never on the group timetable.
 */
export function AvailabilityPanel({ trainers }: { trainers: Trainer[] }) {
  const [trainerId, setTrainerId] = useState<string | null>(trainers[0]?.id ?? null);
  const trainer = trainers.find((t) => t.id === trainerId) ?? null;
  const availability = useAvailability(trainer?.id ?? null);
  const write = useWriteAvailability();
  const publish = usePublishSessions();
  const remove = (kind: 'remove-weekly' | 'remove-one-off', id: string) =>
    write.mutate(
      { kind, id },
      {
        onSuccess: () => toast.success('Availability removed, with its sessions nobody had booked'),
        onError: (e) => toast.error(e.message),
      },
    );

  return (
    <section aria-labelledby="trainer-availability" className="mt-10">
      <h2 id="trainer-availability" className="text-xl font-bold text-slate-900">
        Availability for One-to-One sessions
      </h2>
      <p className="mb-4 mt-1 text-sm text-slate-600">
        Members book these sessions under Personal training. Publish makes the next four weeks of sessions; the hourly jobs keep adding
        them.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Trainer" className="min-w-48">
          {(control) => (
            <select {...control} className={controlClasses(false)} value={trainerId ?? ''} onChange={(e) => setTrainerId(e.target.value)}>
              {trainers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button
          loading={publish.isPending}
          onClick={() =>
            publish.mutate(undefined, {
              onSuccess: (created) => toast.success(created === 1 ? '1 new session published' : `${created} new sessions published`),
              onError: (e) => toast.error(e.message),
            })
          }
        >
          Publish sessions
        </Button>
      </div>
      {trainer && (
        <div className="mt-4 grid items-start gap-6 lg:grid-cols-2">
          <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h3 className="font-semibold text-slate-900">Every week</h3>
            {availability.isPending && <Spinner label="Loading availability" />}
            <ul aria-label={`${trainer.name}'s weekly availability`} className="divide-y divide-slate-100">
              {availability.data?.weekly.map((w) => (
                <li key={w.id} className="flex items-center justify-between gap-2 py-2 text-sm">
                  <span>
                    {WEEKDAYS[w.weekday - 1]} {hhmm(w.starts_at)}–{hhmm(w.ends_at)}, {w.session_minutes}-minute sessions
                  </span>
                  <RowDangerButton
                    label={`Remove ${WEEKDAYS[w.weekday - 1]} ${hhmm(w.starts_at)}`}
                    icon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                    onClick={() => remove('remove-weekly', w.id)}
                  >
                    Remove
                  </RowDangerButton>
                </li>
              ))}
              {availability.data?.weekly.length === 0 && <li className="py-2 text-sm text-slate-600">No weekly availability yet.</li>}
            </ul>
            <WeeklyWindowForm key={trainer.id} trainerId={trainer.id} />
          </div>
          <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h3 className="font-semibold text-slate-900">One-off sessions</h3>
            <ul aria-label={`${trainer.name}'s one-off sessions`} className="divide-y divide-slate-100">
              {availability.data?.oneOff.map((o) => {
                const when = formatInLondon(o.start_time, 'EEE d MMM yyyy, HH:mm');
                return (
                  <li key={o.id} className="flex items-center justify-between gap-2 py-2 text-sm">
                    <span>
                      {when}, {o.duration} minutes
                    </span>
                    <RowDangerButton
                      label={`Remove ${when}`}
                      icon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                      onClick={() => remove('remove-one-off', o.id)}
                    >
                      Remove
                    </RowDangerButton>
                  </li>
                );
              })}
              {availability.data?.oneOff.length === 0 && <li className="py-2 text-sm text-slate-600">No one-off sessions.</li>}
            </ul>
            <OneOffForm key={trainer.id} trainerId={trainer.id} />
          </div>
          {availability.data && availability.data.uncovered.length > 0 && (
            <UncoveredSessions trainer={trainer.name} sessions={availability.data.uncovered} />
          )}
        </div>
      )}
    </section>
  );
}

/** Booked sessions outside the published availability: they stay, so the admin moves them or talks to the member. */
function UncoveredSessions({ trainer, sessions }: { trainer: string; sessions: UncoveredSession[] }) {
  return (
    <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 lg:col-span-2">
      <h3 className="font-semibold">Booked sessions outside {trainer}'s availability</h3>
      <p className="mt-1">These stay booked: move one from the member's Credits on Members, or contact the member.</p>
      <ul aria-label={`Booked sessions outside ${trainer}'s availability`} className="mt-2 list-disc pl-5">
        {sessions.map((s) => (
          <li key={`${s.class_id}-${s.member_name}`}>
            {s.start_time ? formatInLondon(s.start_time, 'EEE d MMM yyyy, HH:mm') : ''}, {s.duration} minutes: {s.member_name}
          </li>
        ))}
      </ul>
    </div>
  );
}

function WeeklyWindowForm({ trainerId }: { trainerId: string }) {
  const write = useWriteAvailability();
  const { register, handleSubmit, formState } = useForm<WeeklyForm>({
    resolver: zodResolver(weeklyFormSchema),
    defaultValues: {
      weekday: 1,
      startsAt: '09:00',
      endsAt: '12:00',
      sessionMinutes: 60,
    },
  });
  const submit = handleSubmit((values) =>
    write.mutate(
      { kind: 'weekly', trainerId, values },
      {
        onSuccess: () => toast.success('Weekly availability added'),
        onError: (e) => toast.error(e.message),
      },
    ),
  );
  return (
    <form noValidate aria-label="Add weekly availability" onSubmit={(e) => void submit(e)} className="grid grid-cols-2 gap-3">
      <Field label="Day">
        {(control) => (
          <select {...control} {...register('weekday')} className={controlClasses(false)}>
            {WEEKDAYS.map((day, i) => (
              <option key={day} value={i + 1}>
                {day}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField
        label="Session minutes"
        type="number"
        min={15}
        max={180}
        error={formState.errors.sessionMinutes?.message}
        {...register('sessionMinutes')}
      />
      <TextField label="From" type="time" error={formState.errors.startsAt?.message} {...register('startsAt')} />
      <TextField label="To" type="time" error={formState.errors.endsAt?.message} {...register('endsAt')} />
      <Button type="submit" variant="outline" loading={write.isPending} className="col-span-2">
        Add weekly availability
      </Button>
    </form>
  );
}

function OneOffForm({ trainerId }: { trainerId: string }) {
  const write = useWriteAvailability();
  const { register, handleSubmit, formState, reset } = useForm<OneOffForm>({
    resolver: zodResolver(oneOffFormSchema),
    defaultValues: { date: '', time: '', duration: 60 },
  });
  const submit = handleSubmit((values) =>
    write.mutate(
      { kind: 'one-off', trainerId, values },
      {
        onSuccess: () => {
          toast.success('One-off session added');
          reset();
        },
        onError: (e) => toast.error(e.message),
      },
    ),
  );
  return (
    <form noValidate aria-label="Add a one-off session" onSubmit={(e) => void submit(e)} className="grid grid-cols-2 gap-3">
      <TextField label="Date" type="date" min={londonToday()} error={formState.errors.date?.message} {...register('date')} />
      <TextField label="Time" type="time" error={formState.errors.time?.message} {...register('time')} />
      <TextField label="Minutes" type="number" min={15} max={180} error={formState.errors.duration?.message} {...register('duration')} />
      <Button type="submit" variant="outline" loading={write.isPending} className="col-span-2">
        Add one-off session
      </Button>
    </form>
  );
}
