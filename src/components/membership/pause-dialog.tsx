import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { formatPounds } from '@/config/plans';
import { formatLondonDate, formatInLondon } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import {
  formatDay,
  pauseFormSchema,
  useConfirmPause,
  usePauseRules,
  usePreviewPause,
  type PauseForm,
  type PauseQuote,
  pauseErrorText,
} from '@/lib/membership-pause';

function errorText(error: unknown): string {
  return pauseErrorText(error, 'Could not check the pause, please try again.');
}

/**
 * Pause a membership (decision 0050): choose the first and last day, see what the database says
 * it would do (dates, hold fee, the new renewal, the plan bookings that go), then confirm. The
 * confirmation runs the same rules again, so what is confirmed is what was shown. `memberId` is set
 * when an admin pauses a member (no notice or length limits then).
 */
export function PauseDialog({ memberId, who, onClose }: { memberId: string | null; who?: string; onClose: () => void }) {
  const preview = usePreviewPause(memberId);
  const confirm = useConfirmPause(memberId);
  const rules = usePauseRules();
  const [quote, setQuote] = useState<{ form: PauseForm; quote: PauseQuote } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<PauseForm>({
    resolver: zodResolver(pauseFormSchema),
    defaultValues: { startsOn: '', endsOn: '' },
  });

  const check = handleSubmit(async (form) => {
    setRefusal(null);
    try {
      setQuote({ form, quote: await preview.mutateAsync(form) });
    } catch (error) {
      setRefusal(errorText(error));
    }
  });

  async function confirmPause() {
    if (!quote) return;
    setRefusal(null);
    try {
      const done = await confirm.mutateAsync(quote.form);
      toast.success(
        `Paused from ${formatDay(done.startsOn)} to ${formatDay(done.endsOn)}. Next renewal: ${formatLondonDate(done.renewalAfter)}.`,
      );
      onClose();
    } catch (error) {
      setRefusal(errorText(error));
    }
  }

  const r = rules.data;
  const rulesHint =
    memberId === null && r
      ? `A pause is ${r.minDays} to ${r.maxDays} days, up to ${r.perYear} a year, starting at least ${r.noticeDays} days from today. ` +
        (r.holdFee === null ? 'There is no hold fee.' : `The hold fee is ${formatPounds(r.holdFee)} a month.`)
      : 'The studio may pause a member from today for up to 365 days.';

  return (
    <Modal open onClose={onClose} title={who ? `Pause ${who}'s membership` : 'Pause your membership'} description={rulesHint}>
      {quote === null ? (
        <form noValidate aria-label="Pause dates" onSubmit={(e) => void check(e)} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="First paused day" type="date" required {...register('startsOn')} error={formState.errors.startsOn?.message} />
            <TextField label="Last paused day" type="date" required {...register('endsOn')} error={formState.errors.endsOn?.message} />
          </div>
          {refusal && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
              {refusal}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={onClose}>
              Back
            </Button>
            <Button type="submit" loading={preview.isPending}>
              See what changes
            </Button>
          </div>
        </form>
      ) : (
        <div className="space-y-4">
          <PauseSummary quote={quote.quote} />
          {refusal && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
              {refusal}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={() => setQuote(null)}>
              Change dates
            </Button>
            <Button loading={confirm.isPending} onClick={() => void confirmPause()}>
              Confirm pause
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}

export function PauseSummary({ quote: q }: { quote: PauseQuote }) {
  return (
    <dl aria-label="What the pause does" className="grid gap-3 text-slate-900">
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Paused</dt>
        <dd>
          {formatDay(q.startsOn)} to {formatDay(q.endsOn)} ({q.days} days)
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Hold fee</dt>
        <dd>
          {q.holdFee === null
            ? 'None: nothing is charged while paused'
            : `${formatPounds(q.holdFee)} a month × ${q.feeMonths} = ${formatPounds(q.feeTotal)}, charged to your saved card`}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Next renewal</dt>
        <dd>
          Moves from {formatLondonDate(q.renewalBefore)} to {formatLondonDate(q.renewalAfter)}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Bookings that will be cancelled</dt>
        <dd>
          {q.cancelledBookings.length === 0 ? (
            'None'
          ) : (
            <ul className="list-disc pl-5">
              {q.cancelledBookings.map((b) => (
                <li key={b.booking_id}>
                  {b.class_name}, {formatInLondon(b.start_time, 'EEE d MMMM, h:mm a')}:{' '}
                  {b.refund > 0 ? `${formatPounds(b.refund)} refunded` : 'no refund (paid by your plan)'}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}
