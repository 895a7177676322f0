import { useSearchParams } from 'react-router-dom';
import { CheckCircle2, UserRound } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { formatClassTime, formatDayHeading, studioDayKey } from '@/lib/studio-time';
import { useScheduleClass } from '../api/get-class-schedule';
import { useCreditForClass } from '../api/get-credit-for-class';
import { TRAINING_WEEKS, useTrainerCards, useTrainingSlots, type TrainerCard, type TrainingSlot } from '../api/get-personal-training';
import { useViewer } from '../api/use-viewer';
import { slotUses } from '../lib/personal-training';
import { BookClassForm } from './book-class-form';

/** Sessions grouped by London day, in order. */
function byDay(slots: readonly TrainingSlot[]): { key: string; heading: string; slots: TrainingSlot[] }[] {
  const days = new Map<string, { key: string; heading: string; slots: TrainingSlot[] }>();
  for (const slot of slots) {
    const key = studioDayKey(slot.start_time);
    const day = days.get(key) ?? { key, heading: formatDayHeading(slot.start_time), slots: [] };
    day.slots.push(slot);
    days.set(key, day);
  }
  return [...days.values()];
}

/**
 * Personal training: pick a trainer, then a time over the next weeks; each time says
 * what booking it would use (a personal-training session and its expiry, or the price) before the
 * member confirms on the booking form, which books with the credit or sends them to the checkout.
 */
export function PersonalTraining({ now }: { now: Date }) {
  const [params, setParams] = useSearchParams();
  const trainers = useTrainerCards();
  const { memberId } = useViewer();
  const trainerId = params.get('trainer') ?? trainers.data?.[0]?.id ?? null;
  const slotId = params.get('session');
  const slots = useTrainingSlots(memberId, trainerId);
  const pick = (next: { trainer?: string; session?: string | null }) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next.trainer) out.set('trainer', next.trainer);
        if (next.trainer || next.session === null) out.delete('session');
        if (next.session) out.set('session', next.session);
        return out;
      },
      { replace: true },
    );

  if (trainers.isPending) return <Spinner label="Loading trainers" />;
  if (trainers.isError) return <p role="alert">Could not load the trainers. Please try again.</p>;
  if (trainers.data.length === 0) return <p className="text-slate-600">No trainers are taking sessions yet.</p>;

  return (
    <div className="space-y-6">
      <fieldset>
        <legend className="text-lg font-semibold text-slate-900">Choose a trainer</legend>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {trainers.data.map((t) => (
            <TrainerOption key={t.id} trainer={t} checked={t.id === trainerId} onChoose={() => pick({ trainer: t.id })} />
          ))}
        </div>
      </fieldset>
      <section aria-labelledby="pt-times">
        <h2 id="pt-times" className="text-lg font-semibold text-slate-900">
          Choose a time
        </h2>
        <p className="text-sm text-slate-600">The next {TRAINING_WEEKS} weeks. Each time says what booking it would use.</p>
        {slots.isPending && <Spinner label="Loading times" />}
        {slots.isError && <p role="alert">Could not load the times. Please try again.</p>}
        {slots.data?.length === 0 && (
          <p className="mt-3 text-slate-600">No free times in the next {TRAINING_WEEKS} weeks. Try another trainer.</p>
        )}
        {slots.data &&
          byDay(slots.data).map((day) => (
            <div key={day.key} className="mt-4">
              <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{day.heading}</h3>
              <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                {day.slots.map((slot) => (
                  <li key={slot.id}>
                    <SlotButton slot={slot} selected={slot.id === slotId} onChoose={() => pick({ session: slot.id })} />
                  </li>
                ))}
              </ul>
              {day.slots.some((s) => s.id === slotId) && slotId && (
                <SlotBooking classId={slotId} now={now} onClose={() => pick({ session: null })} />
              )}
            </div>
          ))}
      </section>
    </div>
  );
}

function TrainerOption({ trainer, checked, onChoose }: { trainer: TrainerCard; checked: boolean; onChoose: () => void }) {
  return (
    <label
      className={cn(
        'flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border bg-white p-3 shadow-sm',
        checked ? 'border-brand-500 ring-2 ring-brand-200' : 'border-slate-200 hover:border-brand-300',
      )}
    >
      <input type="radio" name="trainer" className="sr-only" checked={checked} onChange={onChoose} />
      {trainer.photo_url ? (
        <img src={trainer.photo_url} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover" />
      ) : (
        <UserRound aria-hidden="true" className="h-14 w-14 shrink-0 rounded-full bg-slate-100 p-3 text-slate-400" />
      )}
      <span className="min-w-0">
        <span className="block font-semibold text-slate-900">{trainer.name}</span>
        {trainer.bio && <span className="block text-sm text-slate-600">{trainer.bio}</span>}
      </span>
    </label>
  );
}

function SlotButton({ slot, selected, onChoose }: { slot: TrainingSlot; selected: boolean; onChoose: () => void }) {
  const time = formatClassTime(slot.start_time);
  if (slot.my_booking_id) {
    return (
      <p className="flex min-h-11 items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm font-medium text-green-900">
        <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
        {time} · Booked
      </p>
    );
  }
  const uses = slotUses(slot);
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onChoose}
      className={cn(
        'flex min-h-11 w-full flex-col items-start rounded-lg border px-3 py-2 text-left text-sm',
        selected ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-white hover:border-brand-300',
      )}
    >
      <span className="font-semibold text-slate-900">
        {time} · {slot.duration} min
      </span>
      <span className="text-slate-600">{uses}</span>
    </button>
  );
}

/** The booking form for the chosen time: the same form, facts and checkout as any class. */
function SlotBooking({ classId, now, onClose }: { classId: string; now: Date; onClose: () => void }) {
  const { user } = useAuth();
  const { viewer, ready, memberId } = useViewer();
  const cls = useScheduleClass(classId, viewer, ready);
  const credit = useCreditForClass(memberId, classId, true);
  if (cls.isPending || credit.isPending) return <Spinner label="Loading the session" />;
  if (!cls.data) return null;
  return (
    <Card className="mt-3">
      <div className="mb-4 flex items-start justify-between gap-3">
        <h3 className="text-lg font-semibold text-slate-900">
          {cls.data.trainer}, {formatDayHeading(cls.data.start_time)} at {formatClassTime(cls.data.start_time)}
        </h3>
        <button type="button" onClick={onClose} className="min-h-11 text-sm font-semibold text-brand-700 hover:underline">
          Choose another time
        </button>
      </div>
      <BookClassForm key={cls.data.id} cls={cls.data} email={user?.email ?? ''} usage={undefined} now={now} credit={credit.data} />
    </Card>
  );
}
