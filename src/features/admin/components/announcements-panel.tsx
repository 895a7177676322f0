import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Megaphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, TextAreaField, TextField, controlClasses } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { plansInCategory } from '@/config/plans';
import { formatInLondon } from '@/lib/studio-calendar';
import { formatClassDateTime } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import {
  announcementSchema,
  KINDS,
  SEGMENTS,
  useAnnouncementClasses,
  useAnnouncements,
  useCancelAnnouncement,
  useCreateAnnouncement,
  usePreviewAnnouncement,
  type Announcement,
  type AnnouncementForm,
  type AnnouncementInput,
  type AnnouncementPreview,
} from '../api/announcements';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the database would reach, in the admin's words. */
function reachText(p: Pick<AnnouncementPreview, 'recipients' | 'emails' | 'pushes' | 'texts'>): string {
  return `${plural(p.recipients ?? 0, 'member')}: ${p.emails ?? 0} by email, ${p.pushes ?? 0} by push, ${p.texts ?? 0} by text`;
}

const DEFAULTS: AnnouncementForm = {
  type: 'announcement',
  subject: '',
  body: '',
  segment: 'active',
  planSlug: '',
  classId: '',
  lapsedDays: 60,
  when: 'now',
  sendAt: '',
};

/**
 * /admin/messages: write to a segment of the members (decision 0090). The admin previews how
 * many it reaches by which channel before sending (the same list the job sends to), then sends it
 * now or at a chosen London time; scheduled ones can be cancelled until they go.
 */
export function AnnouncementsPanel() {
  return (
    <Card aria-labelledby="announcements-heading" className="mt-6">
      <h2 id="announcements-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Megaphone aria-hidden="true" className="h-5 w-5 text-brand-700" />
        Announcements
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Write to a group of members by email, push and text, by each member&apos;s preferences. News and offers reach only members who said
        yes to them.
      </p>
      <AnnouncementForm />
      <AnnouncementList />
    </Card>
  );
}

function AnnouncementForm() {
  const preview = usePreviewAnnouncement();
  const create = useCreateAnnouncement();
  const [previewed, setPreviewed] = useState<{ key: string; result: AnnouncementPreview } | null>(null);
  const { register, handleSubmit, formState, control, reset } = useForm<AnnouncementForm, unknown, AnnouncementInput>({
    resolver: zodResolver(announcementSchema),
    defaultValues: DEFAULTS,
  });
  const values = useWatch({ control });
  const classes = useAnnouncementClasses(values.segment === 'class');
  // The preview stands for who it is for; a change of kind or segment asks for a new one.
  const audienceKey = JSON.stringify([values.type, values.segment, values.planSlug, values.classId, values.lapsedDays]);
  const current = previewed?.key === audienceKey ? previewed.result : null;
  const errors = formState.errors;

  const onPreview = handleSubmit((v) => {
    preview.mutate(v, {
      onSuccess: (result) => setPreviewed({ key: audienceKey, result }),
      onError: (error) => toast.error(error.message || 'Could not count the recipients. Please try again.'),
    });
  });

  const onSend = handleSubmit((v) => {
    if (!current) return;
    create.mutate(v, {
      onSuccess: (saved) => {
        toast.success(
          saved.sent_at ? `Sent to ${reachText(saved)}` : `Scheduled for ${formatInLondon(saved.send_at, 'EEE d MMM, h:mm a')}`,
        );
        reset(DEFAULTS);
        setPreviewed(null);
      },
      onError: (error) => toast.error(error.message || 'Could not send the announcement. Please try again.'),
    });
  });

  return (
    <form noValidate onSubmit={(e) => void onSend(e)} className="mt-4 space-y-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Kind of message</legend>
        {(Object.keys(KINDS) as (keyof typeof KINDS)[]).map((kind) => (
          <label key={kind} className="flex min-h-11 items-center gap-3 text-sm">
            <input type="radio" value={kind} className="h-5 w-5 accent-brand-600" {...register('type')} />
            {KINDS[kind]}
          </label>
        ))}
      </fieldset>
      <TextField label="Subject" error={errors.subject?.message} {...register('subject')} />
      <TextAreaField
        label="Message"
        rows={6}
        hint="A blank line starts a new paragraph."
        error={errors.body?.message}
        {...register('body')}
      />
      <Field label="Who it is for" error={errors.segment?.message}>
        {(c) => (
          <select {...c} className={controlClasses(false)} {...register('segment')}>
            {(Object.keys(SEGMENTS) as (keyof typeof SEGMENTS)[]).map((s) => (
              <option key={s} value={s}>
                {SEGMENTS[s]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {values.segment === 'plan' && (
        <Field label="Plan" error={errors.planSlug?.message}>
          {(c) => (
            <select {...c} className={controlClasses(Boolean(errors.planSlug))} {...register('planSlug')}>
              <option value="">Choose a plan</option>
              {plansInCategory('membership').map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {values.segment === 'class' && (
        <Field label="Class" error={errors.classId?.message}>
          {(c) =>
            classes.isPending ? (
              <Spinner label="Loading classes" />
            ) : (
              <select {...c} className={controlClasses(Boolean(errors.classId))} {...register('classId')}>
                <option value="">Choose a class</option>
                {(classes.data ?? []).map((cl) => (
                  <option key={cl.id} value={cl.id}>
                    {cl.name}, {formatClassDateTime(cl.start_time)}
                  </option>
                ))}
              </select>
            )
          }
        </Field>
      )}
      {values.segment === 'lapsed' && (
        <TextField
          label="Lapsed within (days)"
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          error={errors.lapsedDays?.message}
          {...register('lapsedDays')}
        />
      )}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">When</legend>
        <label className="flex min-h-11 items-center gap-3 text-sm">
          <input type="radio" value="now" className="h-5 w-5 accent-brand-600" {...register('when')} />
          Send now
        </label>
        <label className="flex min-h-11 items-center gap-3 text-sm">
          <input type="radio" value="later" className="h-5 w-5 accent-brand-600" {...register('when')} />
          Schedule
        </label>
      </fieldset>
      {values.when === 'later' && (
        <TextField label="Send at (London time)" type="datetime-local" error={errors.sendAt?.message} {...register('sendAt')} />
      )}
      <div aria-live="polite" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
        {current ? (
          <>
            <p>
              <strong>Will reach {reachText(current)}.</strong>
            </p>
            {(current.unreachable ?? 0) > 0 && (
              <p>{plural(current.unreachable ?? 0, 'member')} in this group will not get it (no consent, or every channel turned off).</p>
            )}
          </>
        ) : (
          <p>Preview the recipients before sending.</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void onPreview()} loading={preview.isPending}>
          Preview recipients
        </Button>
        <Button type="submit" disabled={!current} loading={create.isPending}>
          {values.when === 'later' ? 'Schedule announcement' : 'Send announcement'}
        </Button>
      </div>
    </form>
  );
}

function status(a: Announcement): string {
  if (a.cancelled_at) return 'Cancelled';
  if (a.sent_at) return `Sent ${formatInLondon(a.sent_at, 'd MMM, h:mm a')} to ${reachText(a)}`;
  return `Scheduled for ${formatInLondon(a.send_at, 'EEE d MMM, h:mm a')}`;
}

function AnnouncementList() {
  const list = useAnnouncements();
  const cancel = useCancelAnnouncement();
  if (list.isPending) return <Spinner label="Loading announcements" />;
  if (list.isError) {
    return (
      <p role="alert" className="mt-4 text-sm text-red-700">
        Could not load the announcements. Please refresh the page.
      </p>
    );
  }
  if (list.data.length === 0) return <p className="mt-4 text-sm text-slate-600">No announcements yet.</p>;
  return (
    <section aria-labelledby="announcements-sent-heading" className="mt-6">
      <h3 id="announcements-sent-heading" className="font-semibold">
        Recent announcements
      </h3>
      <ul className="mt-2 divide-y divide-slate-100">
        {list.data.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span>
              <span className="font-medium text-slate-900">{a.subject}</span>
              <span className="block text-slate-600">
                {SEGMENTS[a.segment as keyof typeof SEGMENTS]} · {status(a)}
              </span>
            </span>
            {!a.sent_at && !a.cancelled_at && (
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Cancel ${a.subject}`}
                loading={cancel.isPending && cancel.variables === a.id}
                onClick={() =>
                  cancel.mutate(a.id, {
                    onSuccess: () => toast.success('Announcement cancelled'),
                    onError: (error) => toast.error(error.message || 'Could not cancel it. Please try again.'),
                  })
                }
              >
                Cancel
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
