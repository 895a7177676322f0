import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, TextAreaField, controlClasses } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import { useCoachClasses } from '../api/coach';
import {
  askCoverSchema,
  coverError,
  useAcceptCover,
  useAskCover,
  useCoachCoverRequests,
  useWithdrawCover,
  type AskCoverForm,
  type CoverRequest,
} from '../api/cover';

const when = (r: { start_time: string }) => `${formatClassDate(r.start_time)} ${formatClassTime(r.start_time)}`;

/** Where a request stands, in the coach's words. */
function standing(r: CoverRequest): string {
  if (r.mine) return r.accepted_by_name ? `${r.accepted_by_name} offered to cover: waiting for the studio` : 'Waiting for a coach to offer';
  if (r.covering) return 'You offered to cover: waiting for the studio';
  if (r.status === 'accepted') return `${r.accepted_by_name ?? 'Another coach'} is covering`;
  return `${r.requested_by_name} needs cover`;
}

/**
 * Cover (decision 0087): ask for cover on one of your classes, offer to cover another coach's.
 * The studio approves (or approves every offer at once); the class then moves to the coach who
 * covers, and its members are told by the studio's class-change message.
 */
export function CoverRequests() {
  const requests = useCoachCoverRequests();
  const classes = useCoachClasses(true);
  const ask = useAskCover();
  const accept = useAcceptCover();
  const withdraw = useWithdrawCover();
  const pending = new Set((requests.data ?? []).filter((r) => r.mine).map((r) => r.class_id));
  const askable = (classes.data ?? []).filter((c) => new Date(c.start_time) > new Date() && !pending.has(c.id));
  const { register, handleSubmit, reset, formState } = useForm<AskCoverForm>({
    resolver: zodResolver(askCoverSchema),
    defaultValues: { classId: '', note: '' },
  });
  const submit = handleSubmit((values) =>
    ask.mutate(values, {
      onSuccess: () => {
        toast.success('Cover requested: the other coaches can see it');
        reset({ classId: '', note: '' });
      },
      onError: (error) => toast.error(coverError(error)),
    }),
  );

  return (
    <section aria-labelledby="cover-heading" className="mt-10">
      <h2 id="cover-heading" className="mb-3 text-xl font-bold">
        Cover
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <Field label="Ask for cover on" error={formState.errors.classId?.message}>
          {(control) => (
            <select {...control} {...register('classId')} className={controlClasses(Boolean(formState.errors.classId))}>
              <option value="">Choose one of your classes</option>
              {askable.map((c) => (
                <option key={c.id} value={c.id}>
                  {when(c)} {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextAreaField
          label="Note for the other coaches"
          optional
          rows={2}
          maxLength={500}
          error={formState.errors.note?.message}
          {...register('note')}
        />
        <Button type="submit" loading={ask.isPending}>
          Ask for cover
        </Button>
      </form>
      {requests.isPending && <Spinner label="Loading cover requests" />}
      {requests.isError && <p role="alert">Could not load the cover requests.</p>}
      {requests.data && requests.data.length === 0 && <p className="mt-3 text-sm text-slate-600">No cover requests right now.</p>}
      {requests.data && requests.data.length > 0 && (
        <ul aria-label="Cover requests" className="mt-3 space-y-3">
          {requests.data.map((r) => (
            <li key={r.id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <p className="font-semibold text-slate-900">
                {when(r)} {r.class_name}
              </p>
              <p className="text-sm text-slate-600">{standing(r)}</p>
              {r.note && <p className="mt-1 text-sm text-slate-700">“{r.note}”</p>}
              <div className="mt-2">
                {r.mine ? (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Withdraw your cover request for ${r.class_name}, ${when(r)}`}
                    loading={withdraw.isPending && withdraw.variables === r.id}
                    onClick={() =>
                      withdraw.mutate(r.id, {
                        onSuccess: () => toast.success('Cover request withdrawn'),
                        onError: (error) => toast.error(coverError(error)),
                      })
                    }
                  >
                    Withdraw
                  </Button>
                ) : (
                  r.status === 'open' && (
                    <Button
                      size="sm"
                      aria-label={`Cover ${r.class_name}, ${when(r)}`}
                      loading={accept.isPending && accept.variables === r.id}
                      onClick={() =>
                        accept.mutate(r.id, {
                          onSuccess: (saved) =>
                            toast.success(saved.status === 'approved' ? 'It is your class now' : 'Offer sent: the studio will confirm'),
                          onError: (error) => toast.error(coverError(error)),
                        })
                      }
                    >
                      Cover this class
                    </Button>
                  )
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
