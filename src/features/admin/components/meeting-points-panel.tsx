import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MapPin, Pencil, Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Field, TextAreaField, TextField } from '@/components/ui/field';
import { controlClasses } from '@/components/ui/field-styles';
import { Spinner } from '@/components/ui/spinner';
import { STUDIO } from '@/config/studio';
import {
  meetingPointFormSchema,
  meetingPointRefusal,
  useDeleteMeetingPoint,
  useMeetingPoints,
  useSaveMeetingPoint,
  useSetSlotMeetingPoint,
  useSlotMeetingPoints,
  type MeetingPoint,
  type MeetingPointForm,
} from '../api/meeting-points';
import { TEMPLATE_SLOTS } from '../lib/timetable-template';
import { EmptyState } from './empty-state';
import { PanelSection } from './panel-section';
import { TablePanel } from './table-panel';

const EMPTY: MeetingPointForm = { name: '', address: '', directions: '', mapUrl: '' };

/**
 * Meeting points (decision 0055): places other than the hall where a class meets. A class picks one on
 * its form, a template slot below; emails, calendar entries, class cards and pushes then say it.
 */
export function MeetingPointsPanel() {
  const points = useMeetingPoints();
  const remove = useDeleteMeetingPoint();
  const [editing, setEditing] = useState<MeetingPoint | null>(null);
  return (
    <section aria-labelledby="meeting-points-heading" className="mt-10">
      <h2 id="meeting-points-heading" className="mb-1 text-xl font-bold text-slate-900">
        Meeting points
      </h2>
      <p className="mb-4 text-sm text-slate-600">
        Places other than {STUDIO.hall} where a class meets. Every email, calendar entry and class card about the class says where.
      </p>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <MeetingPointFormCard key={editing?.id ?? 'new'} point={editing} onDone={() => setEditing(null)} />
        <TablePanel className="lg:col-span-2">
          {points.isPending && <Spinner label="Loading meeting points" />}
          {points.isError && <EmptyState title="Could not load the meeting points" body="Refresh the page to try again." />}
          {points.data?.length === 0 && <EmptyState title="No meeting points yet" body={`Every class meets at ${STUDIO.hall}.`} />}
          {points.data && points.data.length > 0 && (
            <ul aria-label="Meeting points" className="divide-y divide-slate-100">
              {points.data.map((p) => (
                <li key={p.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
                  <MapPin aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-slate-400" />
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-slate-900">{p.name}</p>
                    <p className="text-sm text-slate-600">{p.address}</p>
                    {p.directions && <p className="text-sm text-slate-500">{p.directions}</p>}
                  </div>
                  <div className="flex gap-2">
                    <Button variant="outline" size="sm" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                      Edit
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={`Delete ${p.name}`}
                      loading={remove.isPending && remove.variables === p.id}
                      onClick={() =>
                        remove.mutate(p.id, {
                          onSuccess: () => toast.success('Meeting point deleted'),
                          onError: (error) => toast.error(meetingPointRefusal(error)),
                        })
                      }
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </TablePanel>
      </div>
      {points.data && points.data.length > 0 && <SlotMeetingPoints points={points.data} />}
    </section>
  );
}

function MeetingPointFormCard({ point, onDone }: { point: MeetingPoint | null; onDone: () => void }) {
  const save = useSaveMeetingPoint();
  const { register, handleSubmit, reset, formState } = useForm<MeetingPointForm>({
    resolver: zodResolver(meetingPointFormSchema),
    defaultValues: point ? { name: point.name, address: point.address, directions: point.directions, mapUrl: point.map_url ?? '' } : EMPTY,
  });
  const submit = handleSubmit((values) =>
    save.mutate(
      { ...values, id: point?.id ?? null },
      {
        onSuccess: () => {
          toast.success(point ? 'Meeting point updated' : 'Meeting point added');
          reset(EMPTY);
          onDone();
        },
        onError: (error) => toast.error(meetingPointRefusal(error)),
      },
    ),
  );
  const title = point ? `Edit ${point.name}` : 'Add a meeting point';
  const { errors } = formState;
  return (
    <form
      noValidate
      aria-label={title}
      onSubmit={(e) => void submit(e)}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <TextField label="Name" required placeholder="Victoria Park, Crown Gate" error={errors.name?.message} {...register('name')} />
      <TextField label="Address" required error={errors.address?.message} {...register('address')} />
      <TextAreaField label="Directions" optional rows={2} error={errors.directions?.message} {...register('directions')} />
      <TextField label="Map link" optional placeholder="https://" error={errors.mapUrl?.message} {...register('mapUrl')} />
      <div className="flex gap-2">
        <Button type="submit" loading={save.isPending} className="flex-1">
          {point ? 'Save Meeting Point' : 'Add Meeting Point'}
        </Button>
        {point && (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/** Where each template slot's generated classes meet (the next Generate gives new classes this place). */
function SlotMeetingPoints({ points }: { points: MeetingPoint[] }) {
  const slots = useSlotMeetingPoints();
  const set = useSetSlotMeetingPoint();
  return (
    <PanelSection
      id="slot-meeting-points"
      title="Where the timetable's classes meet"
      intro="Classes generated from the timetable template meet here. Classes already generated keep their place: change those on Classes."
    >
      {slots.isPending && <Spinner label="Loading the timetable's meeting points" />}
      {slots.data && (
        <ul className="divide-y divide-slate-100">
          {TEMPLATE_SLOTS.map(({ slot, label }) => (
            <li key={slot} className="px-4 py-3">
              <Field label={label}>
                {(control) => (
                  <select
                    {...control}
                    className={controlClasses(false)}
                    value={slots.data[slot] ?? ''}
                    disabled={set.isPending}
                    onChange={(e) =>
                      set.mutate(
                        { slot, meetingPointId: e.target.value || null },
                        {
                          onSuccess: () => toast.success(`${label}: meeting point saved`),
                          onError: (error) => toast.error(meetingPointRefusal(error)),
                        },
                      )
                    }
                  >
                    <option value="">{STUDIO.hall}</option>
                    {points.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </li>
          ))}
        </ul>
      )}
    </PanelSection>
  );
}
