import { useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { AlertTriangle, ArrowLeft, CalendarPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-styles';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { getTimetablePreview, type TimetablePreview } from '../api/get-timetable-preview';
import { timetablePeriodSchema, useRegenerateTimetable, type TimetablePeriod } from '../api/regenerate-timetable';
import { ADMIN_MESSAGES } from '../lib/messages';
import { paidBookingsWarning, REFUND_MESSAGES } from '../lib/refund-words';
import { TIMETABLE_TEMPLATE as T } from '../lib/timetable-template';
import { defaultTimetablePeriod } from '../lib/timetable-period';

const classes = (n: number) => (n === 1 ? '1 class' : `${n} classes`);
const bookings = (n: number) => (n === 1 ? '1 booking' : `${n} bookings`);

/**
 * The question before generating, with what it will do: the classes it creates, and the classes it
 * replaces (only those the timetable made and no longer has) with their bookings and card payments.
 */
function generateQuestion({ start, end }: TimetablePeriod, preview: TimetablePreview): string {
  const replaces =
    preview.replaced === 0
      ? 'replaces no class'
      : `replaces ${classes(preview.replaced)} the timetable no longer has` +
        (preview.replaced_bookings === 0
          ? ' (nobody is booked on them)'
          : `, and their ${bookings(preview.replaced_bookings)} (everyone booked is emailed)`);
  const warning = paidBookingsWarning('Regenerating the timetable', preview.paid_bookings);
  return (
    `Generating from ${start} to ${end} creates ${classes(preview.created)} from the timetable and ${replaces}. ` +
    'Classes added by hand, One-to-One sessions, classes that have started and the timetable classes already there stay as they are, with their bookings.' +
    `${warning ? `\n\n${warning}\n\n` : ' '}Continue?`
  );
}

/** Generate Recurring Classes (spec section 2): the template, a period, and a confirmed regeneration. */
export function GenerateClasses() {
  const regenerate = useRegenerateTimetable();
  const busy = regenerate.isPending;
  // A double click asks once: the second press finds the question already open.
  const asking = useRef(false);
  const { register, handleSubmit, control, formState } = useForm<TimetablePeriod>({
    resolver: zodResolver(timetablePeriodSchema),
    defaultValues: defaultTimetablePeriod(),
  });
  const start = useWatch({ control, name: 'start' });

  async function generate(period: TimetablePeriod) {
    if (busy || asking.current) return;
    asking.current = true;
    try {
      // What it will do is read as the admin asks, so the question counts the bookings made until then.
      const preview = await getTimetablePreview(period).catch(() => null);
      if (preview === null) return void toast.error(REFUND_MESSAGES.checkFailed);
      if (!window.confirm(generateQuestion(period, preview))) return;
      regenerate.mutate(period, {
        onSuccess: () => toast.success(ADMIN_MESSAGES.classesGenerated),
        onError: () => toast.error(ADMIN_MESSAGES.generateFailed),
      });
    } finally {
      asking.current = false;
    }
  }

  return (
    <main id="main" className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-2xl">
        <Link to={paths.admin.classesAlias} className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mb-4' })}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Classes
        </Link>
        <Card>
          <div className="mb-6 flex items-center gap-3">
            <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 text-brand-700">
              <CalendarPlus aria-hidden="true" className="h-6 w-6" />
            </span>
            <h1 className="text-2xl font-bold tracking-tight">Generate Recurring Classes</h1>
          </div>

          <h2 className="text-base font-semibold text-slate-900">The timetable</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>
              {T.breakfastClub.days}: four {T.breakfastClub.name} sessions at {T.breakfastClub.times.join(', ')}
            </li>
            <li>
              {T.kidsClub.days}: one {T.kidsClub.name} session at {T.kidsClub.times[0]}
            </li>
            <li>
              {T.durationMinutes} minutes each, capacity {T.capacity}, {T.pricePaygGbp} GBP pay-as-you-go price
            </li>
            <li>Trainer: {T.trainer}</li>
            <li>Times are London time</li>
            <li>Days the studio is closed (Studio Closures on Classes Management) are skipped</li>
          </ul>

          <form noValidate onSubmit={(e) => void handleSubmit(generate)(e)} className="mt-6 space-y-5">
            <fieldset>
              <legend className="text-base font-semibold text-slate-900">Period</legend>
              <div className="mt-2 grid gap-4 sm:grid-cols-2">
                <TextField label="Start date" type="date" required {...register('start')} />
                <TextField label="End date" type="date" required min={start} error={formState.errors.end?.message} {...register('end')} />
              </div>
            </fieldset>

            <div className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
              <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
              <p>
                <strong>Warning:</strong> generating adds the timetable's classes the period lacks, and replaces the classes it made that
                the timetable no longer has, with their bookings: their members and guests are emailed and card payments are listed under
                Refunds owed. Classes added by hand, One-to-One sessions and classes that have started stay.
              </p>
            </div>

            <Button type="submit" loading={busy} className="w-full sm:w-auto">
              {busy ? 'Generating Classes...' : 'Generate Classes'}
            </Button>
          </form>
        </Card>
      </div>
    </main>
  );
}
