import { lazy, Suspense, useEffect, useRef, type FocusEvent, type ReactNode } from 'react';
import { CalendarDays, Clock, Crown, Lock, MapPin, User } from 'lucide-react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { formatTimeLeft } from '@/lib/rules/countdown';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import type { ScheduleClass } from '../api/get-class-schedule';
import { classTypeLabel } from '../lib/class-filters';
import { spotsLabel, spotsLevel, type SpotsLevel } from '../lib/spots-badge';
import { lockOf } from '../lib/class-facts';
import { freeCancellationText } from '../lib/late-cancel';
import { useCardFocus } from './card-focus';
import { MeetingPlace } from './meeting-place';

/** The cost note shows only on a class the server would send to checkout: a visitor's page never downloads it. */
const PaymentNote = lazy(() => import('./payment-note').then((m) => ({ default: m.PaymentNote })));

const SPOTS_TONE: Record<SpotsLevel, BadgeTone> = { available: 'success', low: 'warning', full: 'danger' };

type Props = {
  cls: ScheduleClass;
  now: Date;
  /** The button or link of the screen (Book Now, Sign in to book, Cancel Booking, ...). */
  action: ReactNode;
  /** An extra status badge, e.g. "Booked". */
  status?: ReactNode;
};

/** One class, as all three schedules show it, from the server's facts. Every state is said in words, not only colour. */
export function ClassCard({ cls, now, action, status }: Props) {
  const level = spotsLevel(cls.spots_left);
  const lock = lockOf(cls);
  const headingId = `class-${cls.id}`;
  const actionId = `${headingId}-action`;
  const focus = useCardFocus(cls.id);
  const keep = focus?.keep === true;
  const ref = useRef<HTMLElement>(null);
  const actionRef = useRef<HTMLDivElement>(null);

  // After every render while this card holds focus: if focus was lost (the pressed button turned
  // busy or was replaced), or waits on the card, put it on the card's action once one can be
  // pressed, else on the card, which then reads out with its action's state ("Booked").
  useEffect(() => {
    const card = ref.current;
    if (!keep || !card) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || active === card || (card.contains(active) && active.matches(':disabled'));
    if (!lost) return;
    const control = actionRef.current?.querySelector<HTMLElement>('button:not(:disabled), a[href]') ?? null;
    if (control !== active) (control ?? card).focus({ preventScroll: true });
  });

  // Focus moving to something outside the card (not merely lost) ends the hold.
  function onBlur(event: FocusEvent<HTMLElement>) {
    const next = event.relatedTarget;
    if (keep && next instanceof Node && !event.currentTarget.contains(next)) focus.release();
  }

  return (
    <article
      ref={ref}
      aria-labelledby={headingId}
      aria-describedby={keep ? actionId : undefined}
      tabIndex={keep ? -1 : undefined}
      onBlur={keep ? onBlur : undefined}
      className={cn(
        'flex h-full flex-col rounded-2xl border bg-white p-5 shadow-sm',
        cls.is_premium ? 'border-purple-200' : 'border-slate-200',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-lg font-bold text-slate-900">
          {cls.name}
        </h3>
        <Badge tone={cls.is_premium ? 'purple' : 'neutral'}>
          {cls.is_premium && <Crown aria-hidden="true" className="h-3.5 w-3.5" />}
          {classTypeLabel(cls)}
        </Badge>
      </div>

      <div className="mt-2 flex flex-wrap gap-2">
        <Badge tone={SPOTS_TONE[level]}>{spotsLabel(cls.spots_left)}</Badge>
        {lock.locked && lock.opensAt && (
          <Badge tone="info">
            <Lock aria-hidden="true" className="h-3.5 w-3.5" />
            Opens in {formatTimeLeft(lock.opensAt, now)}
          </Badge>
        )}
        {status}
      </div>

      <dl className="mt-4 grid gap-2 text-sm text-slate-700">
        <div className="flex items-center gap-2">
          <dt>
            <CalendarDays aria-hidden="true" className="h-4 w-4 text-slate-400" />
            <span className="sr-only">Date</span>
          </dt>
          <dd>{formatClassDate(cls.start_time)}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <Clock aria-hidden="true" className="h-4 w-4 text-slate-400" />
            <span className="sr-only">Time</span>
          </dt>
          <dd>
            {formatClassTime(cls.start_time)} · {cls.duration} min
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <User aria-hidden="true" className="h-4 w-4 text-slate-400" />
            <span className="sr-only">Trainer</span>
          </dt>
          <dd>{cls.trainer}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <MapPin aria-hidden="true" className="h-4 w-4 text-slate-400" />
            <span className="sr-only">Location</span>
          </dt>
          <dd>
            <MeetingPlace name={cls.meeting_point_name} mapUrl={cls.meeting_point_map_url} location={cls.location} />
          </dd>
        </div>
      </dl>

      {cls.description && <p className="mt-3 line-clamp-2 text-sm text-slate-500">{cls.description}</p>}
      <p className="mt-3 text-xs text-slate-600">{freeCancellationText(cls)}</p>
      {cls.bookable && cls.needs_payment && (
        <Suspense fallback={null}>
          <PaymentNote cls={cls} />
        </Suspense>
      )}

      {/* A press on the action (a click or Enter/Space on it) makes this card the one that keeps focus. */}
      <div ref={actionRef} id={actionId} className="mt-auto pt-5" onClickCapture={focus?.hold}>
        {action}
      </div>
    </article>
  );
}
