import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { SlidersHorizontal } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { toast } from '@/lib/toast';
import {
  CHANNELS,
  smsNumberSchema,
  useNotificationPreferences,
  useSetNotificationPreference,
  useSetSmsNumber,
  useSmsNumber,
  type Blocked,
  type Channel,
  type NotificationCell,
  type NotificationRow,
  type SmsNumber,
  type SmsNumberForm,
} from '../api/notification-preferences';

/** The words of the preferences grid on Edit Profile (decision 0091). */
const M = {
  heading: 'Notification preferences',
  intro: 'Choose how the studio tells you each kind of message. Changes are saved at once.',
  caption: 'Messages by email, push notification and text',
  kind: 'Message',
  channels: { email: 'Email', push: 'Push', sms: 'Text' } satisfies Record<Channel, string>,
  notSent: 'Not sent this way',
  blocked: {
    always: 'Always sent by email: it is the record of your booking or payment.',
    no_mobile: 'Add your mobile number below to get texts.',
    stopped: 'Your number replied STOP: save it again to get texts.',
    no_consent: 'Say yes to news and offers under Email preferences first.',
  } satisfies Record<Blocked, string>,
  always: 'Booking confirmations, cancellations and payment emails always come by email.',
  saved: 'Notification preferences saved',
  saveFailed: 'Could not save your notification preferences. Please try again.',
  loadFailed: 'Could not load your notification preferences. Please refresh the page.',
  mobile: 'Mobile number for texts',
  mobileHint: 'A UK mobile (07…) or an international number starting with +. Texts end with "Reply STOP" to stop them.',
  saveMobile: 'Save mobile number',
  removeMobile: 'Remove mobile number',
  mobileSaved: 'Mobile number saved',
  mobileRemoved: 'Mobile number removed: no more texts',
  mobileFailed: 'Could not save your mobile number. Please try again.',
} as const;

/**
 * /edit-profile: one grid of the kinds of message a member has a choice about (rows) by channel
 * (columns), a labelled checkbox in each cell it is sent by, and the mobile number texts go to.
 * A table so that a screen reader announces each cell with its row and column.
 */
export function NotificationPreferencesCard() {
  const { member } = useAuth();
  if (!member) return null;
  return (
    <Card aria-labelledby="notification-preferences-heading">
      <h2 id="notification-preferences-heading" className="flex items-center gap-2 text-lg font-semibold">
        <SlidersHorizontal aria-hidden="true" className="h-5 w-5 text-brand-700" />
        {M.heading}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{M.intro}</p>
      <Grid memberId={member.id} />
      <MobileNumber memberId={member.id} />
    </Card>
  );
}

function Grid({ memberId }: { memberId: string }) {
  const rows = useNotificationPreferences(memberId);
  const save = useSetNotificationPreference(memberId);

  if (rows.isPending) return <Spinner label="Loading your notification preferences" />;
  if (rows.isError) {
    return (
      <p role="alert" className="mt-3 text-sm text-red-700">
        {M.loadFailed}
      </p>
    );
  }
  const notes = new Set(
    rows.data.flatMap((r) => Object.values(r.cells).flatMap((c) => (c.blockedBy && c.blockedBy !== 'always' ? [c.blockedBy] : []))),
  );

  function change(row: NotificationRow, cell: NotificationCell, enabled: boolean) {
    save.mutate(
      { type: row.type, channel: cell.channel, enabled },
      { onSuccess: () => toast.success(M.saved), onError: () => toast.error(M.saveFailed) },
    );
  }

  return (
    <div className="mt-4">
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{M.caption}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="py-2 pr-2 font-medium text-slate-700">
                {M.kind}
              </th>
              {CHANNELS.map((channel) => (
                <th key={channel} scope="col" className="w-16 px-1 py-2 text-center font-medium text-slate-700">
                  {M.channels[channel]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.data.map((row) => (
              <tr key={row.type} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-2 text-left font-normal text-slate-900">
                  {row.label}
                </th>
                {CHANNELS.map((channel) => {
                  const cell = row.cells[channel];
                  const pending = save.isPending && save.variables?.type === row.type && save.variables.channel === channel;
                  return (
                    <td key={channel} className="px-1 py-2 text-center">
                      {cell ? (
                        <input
                          type="checkbox"
                          className="h-5 w-5 accent-brand-600 disabled:opacity-60"
                          aria-label={`${row.label} by ${M.channels[channel].toLowerCase()}`}
                          title={cell.blockedBy ? M.blocked[cell.blockedBy] : undefined}
                          checked={pending ? save.variables.enabled : cell.enabled}
                          disabled={cell.blockedBy !== null || save.isPending}
                          onChange={(event) => change(row, cell, event.currentTarget.checked)}
                        />
                      ) : (
                        <span className="text-slate-400">
                          <span aria-hidden="true">—</span>
                          <span className="sr-only">{M.notSent}</span>
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="mt-3 space-y-1 text-sm text-slate-600">
        <li>{M.always}</li>
        {[...notes].map((blocked) => (
          <li key={blocked}>{M.blocked[blocked]}</li>
        ))}
      </ul>
    </div>
  );
}

function MobileNumber({ memberId }: { memberId: string }) {
  const current = useSmsNumber(memberId);
  if (current.isPending) return <Spinner label="Loading your mobile number" />;
  // A failed read leaves the form empty: saving still works and says what the database decided.
  return <MobileNumberForm memberId={memberId} current={current.isError ? null : current.data} />;
}

function MobileNumberForm({ memberId, current }: { memberId: string; current: SmsNumber }) {
  const save = useSetSmsNumber(memberId);
  const { register, handleSubmit, formState, setError, reset } = useForm<SmsNumberForm>({
    resolver: zodResolver(smsNumberSchema),
    defaultValues: { phone: current?.phone ?? '' },
  });

  const submit = handleSubmit(({ phone }) => {
    save.mutate(phone, {
      onSuccess: (saved) => {
        reset({ phone: saved?.phone ?? '' });
        toast.success(M.mobileSaved);
      },
      onError: (error) => {
        // The database decides what is a mobile, and says so in the member's words.
        if ('hint' in error && error.hint === 'invalid_mobile') setError('phone', { message: error.message }, { shouldFocus: true });
        else toast.error(M.mobileFailed);
      },
    });
  });

  function remove() {
    save.mutate(null, {
      onSuccess: () => {
        reset({ phone: '' });
        toast.success(M.mobileRemoved);
      },
      onError: () => toast.error(M.mobileFailed),
    });
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-3 rounded-lg bg-slate-50 p-3">
      <TextField
        label={M.mobile}
        type="tel"
        autoComplete="tel"
        hint={M.mobileHint}
        error={formState.errors.phone?.message}
        {...register('phone')}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={save.isPending && save.variables !== null}>
          {M.saveMobile}
        </Button>
        {current && (
          <Button type="button" variant="secondary" onClick={remove} loading={save.isPending && save.variables === null}>
            {M.removeMobile}
          </Button>
        )}
      </div>
    </form>
  );
}
