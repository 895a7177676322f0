import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { controlClasses, Field, TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import type { AdminMember } from '../api/get-members';
import {
  grantFormSchema,
  useMemberCredits,
  useOpenSessions,
  useWriteMemberCredits,
  type GrantForm,
  type MemberCredit,
  type OpenSession,
} from '../api/member-credits';
import { creditState, creditTitle } from '../lib/credit-history';
import { formatInLondon } from '@/lib/studio-calendar';

const sessionLabel = (s: Pick<OpenSession, 'trainer' | 'start_time'>) =>
  `${s.trainer}, ${formatInLondon(s.start_time, 'EEE d MMM, HH:mm')}`;

/**
 * A member's credits and One-to-One sessions: every credit with its history; grant and
 * revoke with a reason; book the member into a session with their credit, or move a booked
 * session (the credit follows). The database checks and records each write.
 */
export function MemberCreditsDialog({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  const who = member.name || member.email;
  const credits = useMemberCredits(member.id);
  const sessions = useOpenSessions();
  const now = new Date();
  const upcoming = (credits.data ?? []).filter(
    (c) => c.booking?.class?.type === 'One-to-One' && new Date(c.booking.class.start_time) > now,
  );
  return (
    <Modal
      open
      onClose={onClose}
      title={`Credits of ${who}`}
      description="Sessions, guest passes and class credits with their history. Grants and revocations are recorded with your name and reason."
    >
      <div className="max-h-[70vh] space-y-6 overflow-y-auto">
        <section aria-label="Credit history">
          {credits.isPending && <Spinner label="Loading credits" />}
          {credits.data?.length === 0 && <p className="text-sm text-slate-600">No credits yet.</p>}
          <ul className="divide-y divide-slate-100">
            {credits.data?.map((c) => (
              <CreditRow key={c.id} credit={c} now={now} />
            ))}
          </ul>
        </section>
        <RefundPackages credits={credits.data ?? []} now={now} />
        <GrantCredits memberId={member.id} />
        <section aria-label="One-to-One sessions" className="space-y-3">
          <h3 className="font-semibold text-slate-900">One-to-One sessions</h3>
          {upcoming.map((c) => (
            <MoveSession key={c.id} credit={c} sessions={sessions.data ?? []} />
          ))}
          <BookSession memberId={member.id} sessions={sessions.data ?? []} />
        </section>
      </div>
    </Modal>
  );
}

function CreditRow({ credit, now }: { credit: MemberCredit; now: Date }) {
  const write = useWriteMemberCredits();
  const [revoking, setRevoking] = useState(false);
  const [reason, setReason] = useState('');
  const { state, words } = creditState(credit, now);
  const title = creditTitle(credit);
  return (
    <li className="py-2 text-sm">
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="font-medium text-slate-900">{title}</p>
          <p className={state === 'available' ? 'text-green-800' : 'text-slate-600'}>{words}</p>
        </div>
        {(state === 'available' || state === 'not_yet') && !revoking && (
          <Button variant="outline" size="sm" aria-label={`Revoke ${title}`} onClick={() => setRevoking(true)}>
            Revoke
          </Button>
        )}
      </div>
      {revoking && (
        <form
          aria-label={`Revoke ${title}`}
          className="mt-2 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            write.mutate(
              { kind: 'revoke', creditId: credit.id, reason },
              {
                onSuccess: () => toast.success('Credit revoked'),
                onError: (error) => toast.error(error.message),
              },
            );
          }}
        >
          <TextField label="Reason" className="flex-1" value={reason} onChange={(e) => setReason(e.target.value)} />
          <Button type="submit" size="sm" loading={write.isPending}>
            Revoke credit
          </Button>
        </form>
      )}
    </li>
  );
}

/** Each package with sessions still to use: refund them (revoked now, their price owed back on Refunds owed). */
function RefundPackages({ credits, now }: { credits: MemberCredit[]; now: Date }) {
  const unusedByPayment = new Map<string, number>();
  for (const c of credits) {
    if (c.source === 'package' && c.payment_id && creditState(c, now).state !== 'used' && !c.revoked_at && new Date(c.expires_at) > now) {
      unusedByPayment.set(c.payment_id, (unusedByPayment.get(c.payment_id) ?? 0) + 1);
    }
  }
  if (unusedByPayment.size === 0) return null;
  return (
    <section aria-label="Packages" className="space-y-2">
      <h3 className="font-semibold text-slate-900">Packages</h3>
      {[...unusedByPayment].map(([paymentId, unused]) => (
        <RefundPackage key={paymentId} paymentId={paymentId} unused={unused} />
      ))}
    </section>
  );
}

function RefundPackage({ paymentId, unused }: { paymentId: string; unused: number }) {
  const write = useWriteMemberCredits();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const label = `Refund ${unused} unused session${unused === 1 ? '' : 's'}`;
  return (
    <div className="rounded-lg border border-slate-200 p-3 text-sm">
      {!open ? (
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          {label}
        </Button>
      ) : (
        <form
          aria-label={label}
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            write.mutate(
              { kind: 'refund-package', paymentId, reason },
              {
                onSuccess: () => {
                  toast.success('Sessions revoked: the refund is listed under Refunds owed on Bookings');
                  setOpen(false);
                },
                onError: (error) => toast.error(error.message),
              },
            );
          }}
        >
          <TextField label="Reason" className="flex-1" value={reason} onChange={(e) => setReason(e.target.value)} />
          <Button type="submit" size="sm" loading={write.isPending}>
            {label}
          </Button>
        </form>
      )}
    </div>
  );
}

function GrantCredits({ memberId }: { memberId: string }) {
  const write = useWriteMemberCredits();
  const { register, handleSubmit, formState, reset } = useForm<GrantForm>({
    resolver: zodResolver(grantFormSchema),
    defaultValues: {
      kind: 'personal_training',
      count: 1,
      validDays: 90,
      reason: '',
    },
  });
  const submit = handleSubmit((values) =>
    write.mutate(
      { kind: 'grant', memberId, values },
      {
        onSuccess: () => {
          toast.success('Credits granted');
          reset();
        },
        onError: (error) => toast.error(error.message),
      },
    ),
  );
  return (
    <form
      noValidate
      aria-label="Grant credits"
      onSubmit={(e) => void submit(e)}
      className="grid grid-cols-2 gap-3 rounded-lg border border-slate-200 p-3"
    >
      <Field label="Kind" className="col-span-2">
        {(control) => (
          <select {...control} {...register('kind')} className={controlClasses(false)}>
            <option value="personal_training">Personal-training sessions</option>
            <option value="guest_pass">Guest passes</option>
            <option value="class">Class credits</option>
          </select>
        )}
      </Field>
      <TextField label="How many" type="number" min={1} max={50} error={formState.errors.count?.message} {...register('count')} />
      <TextField
        label="Valid for (days)"
        type="number"
        min={1}
        max={366}
        error={formState.errors.validDays?.message}
        {...register('validDays')}
      />
      <TextField label="Reason" className="col-span-2" error={formState.errors.reason?.message} {...register('reason')} />
      <Button type="submit" loading={write.isPending} className="col-span-2">
        Grant
      </Button>
    </form>
  );
}

function SessionSelect({
  label,
  sessions,
  value,
  onChange,
}: {
  label: string;
  sessions: OpenSession[];
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={label} className="flex-1">
      {(control) => (
        <select {...control} className={controlClasses(false)} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose a session</option>
          {sessions.map((s) => (
            <option key={s.id} value={s.id}>
              {sessionLabel(s)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function BookSession({ memberId, sessions }: { memberId: string; sessions: OpenSession[] }) {
  const write = useWriteMemberCredits();
  const [classId, setClassId] = useState('');
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SessionSelect label="Book into a session (uses their credit)" sessions={sessions} value={classId} onChange={setClassId} />
      <Button
        disabled={!classId}
        loading={write.isPending}
        onClick={() =>
          write.mutate(
            { kind: 'book', memberId, classId },
            {
              onSuccess: () => (toast.success('Session booked'), setClassId('')),
              onError: (error) => toast.error(error.message),
            },
          )
        }
      >
        Book session
      </Button>
    </div>
  );
}

function MoveSession({ credit, sessions }: { credit: MemberCredit; sessions: OpenSession[] }) {
  const write = useWriteMemberCredits();
  const [classId, setClassId] = useState('');
  const booking = credit.booking;
  if (!booking?.class) return null;
  const current = sessionLabel(booking.class);
  return (
    <div className="flex flex-wrap items-end gap-2 rounded-lg bg-slate-50 p-2">
      <SessionSelect label={`Move ${current} to`} sessions={sessions} value={classId} onChange={setClassId} />
      <Button
        variant="outline"
        disabled={!classId}
        loading={write.isPending}
        onClick={() =>
          write.mutate(
            { kind: 'move', bookingId: booking.id, classId },
            {
              onSuccess: () => toast.success('Session moved'),
              onError: (error) => toast.error(error.message),
            },
          )
        }
      >
        Move
      </Button>
    </div>
  );
}
