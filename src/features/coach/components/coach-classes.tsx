import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useErrorToast } from '@/hooks/use-error-toast';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import { londonToday } from '@/lib/studio-calendar';
import { useCoachClasses, type CoachClass } from '../api/coach';
import { COACH_MESSAGES } from '../lib/coach-words';

const londonDay = (iso: string) => londonToday(new Date(iso));

/** The classes the coach teaches: today's first, then the next two weeks', each opening its roster. */
export function CoachClasses() {
  const classes = useCoachClasses(true);
  useErrorToast(classes.isError, COACH_MESSAGES.loadFailed);
  if (classes.isPending) return <Spinner label="Loading your classes" />;
  if (classes.isError) return <p role="alert">{COACH_MESSAGES.loadFailed}</p>;
  if (classes.data.length === 0)
    return (
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
        <h2 className="text-lg font-semibold">{COACH_MESSAGES.noClasses}</h2>
        <p className="mt-1 text-sm text-slate-600">{COACH_MESSAGES.noClassesBody}</p>
      </div>
    );
  const today = londonToday();
  const todays = classes.data.filter((c) => londonDay(c.start_time) === today);
  const later = classes.data.filter((c) => londonDay(c.start_time) !== today);
  return (
    <div className="space-y-8">
      <ClassGroup title="Today" classes={todays} empty="No classes today." />
      <ClassGroup title="Upcoming" classes={later} empty="No more classes in the next two weeks." />
    </div>
  );
}

function ClassGroup({ title, classes, empty }: { title: string; classes: CoachClass[]; empty: string }) {
  const id = `coach-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-xl font-bold">
        {title}
      </h2>
      {classes.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="space-y-3">
          {classes.map((c) => (
            <li key={c.id}>
              <Link
                to={paths.coach.class.href(c.id)}
                className="block rounded-2xl border border-slate-200 bg-white p-4 shadow-sm hover:bg-slate-50 focus-visible:outline-2"
              >
                <span className="block text-lg font-semibold text-slate-900">
                  {formatClassDate(c.start_time)} {formatClassTime(c.start_time)} {c.name}
                </span>
                <span className="mt-1 block text-sm text-slate-600">
                  {c.booked} booked{c.guests > 0 && ` + ${c.guests} guest${c.guests === 1 ? '' : 's'}`} · {c.attended} checked in
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
