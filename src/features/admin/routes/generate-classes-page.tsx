import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { AlertTriangle, ArrowLeft, CalendarPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-styles';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { regenerateTimetable } from '../api/regenerate-timetable';
import { AdminGuard } from '../components/admin-guard';
import { ADMIN_MESSAGES } from '../messages';
import { TIMETABLE_TEMPLATE as T } from '../utils/timetable-template';
import { defaultTimetablePeriod, timetablePeriodError } from '../utils/timetable-period';

function GenerateClasses() {
  const [period, setPeriod] = useState(defaultTimetablePeriod);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const periodError = timetablePeriodError(period.start, period.end);

  async function generate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (busy || periodError) return;
    const question = `This deletes ALL existing classes and their bookings, then creates the timetable from ${period.start} to ${period.end}. Continue?`;
    if (!window.confirm(question)) return;
    setBusy(true);
    try {
      await regenerateTimetable(period.start, period.end);
      toast.success(ADMIN_MESSAGES.classesGenerated);
    } catch {
      toast.error(ADMIN_MESSAGES.generateFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-2xl">
        <Link to="/admin/classes" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mb-4' })}>
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
          </ul>

          <form noValidate onSubmit={(e) => void generate(e)} className="mt-6 space-y-5">
            <fieldset>
              <legend className="text-base font-semibold text-slate-900">Period</legend>
              <div className="mt-2 grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Start date"
                  type="date"
                  required
                  value={period.start}
                  onChange={(e) => setPeriod((p) => ({ ...p, start: e.target.value }))}
                />
                <TextField
                  label="End date"
                  type="date"
                  required
                  min={period.start}
                  value={period.end}
                  error={touched ? periodError : null}
                  onChange={(e) => setPeriod((p) => ({ ...p, end: e.target.value }))}
                />
              </div>
            </fieldset>

            <div className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
              <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
              <p>
                <strong>Warning:</strong> generating deletes all existing classes, and every booking of them, before the new timetable is
                created.
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

export function GenerateClassesPage() {
  return (
    <AdminGuard>
      <GenerateClasses />
    </AdminGuard>
  );
}
