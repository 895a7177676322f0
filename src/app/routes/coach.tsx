import { useParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { useCoachProfile } from '@/features/coach/api/coach';
import { CoachClasses } from '@/features/coach/components/coach-classes';
import { CoachRoster } from '@/features/coach/components/coach-roster';
import { CoverRequests } from '@/features/coach/components/cover-requests';
import { MyPay } from '@/features/coach/components/my-pay';
import { COACH_MESSAGES } from '@/features/coach/lib/coach-words';

/** Only an account linked to a trainer sees the coach area; the database refuses everyone else anyway. */
function CoachOnly({ children }: { children: (trainerName: string) => React.ReactNode }) {
  const { user } = useAuth();
  const profile = useCoachProfile(user?.id ?? null);
  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      {profile.isPending ? (
        <Spinner label="Loading the coach area" />
      ) : profile.isError ? (
        <p role="alert">{COACH_MESSAGES.loadFailed}</p>
      ) : profile.data === null ? (
        <div className="rounded-2xl border border-slate-200 bg-white p-6">
          <h1 className="text-2xl font-bold">{COACH_MESSAGES.notCoachTitle}</h1>
          <p className="mt-2 text-slate-600">{COACH_MESSAGES.notCoachBody}</p>
        </div>
      ) : (
        children(profile.data.name)
      )}
    </section>
  );
}

/** /coach (decision 0027): the classes a coach teaches, today's first. */
export function CoachRoute() {
  return (
    <CoachOnly>
      {(name) => (
        <>
          <h1 className="text-3xl font-bold tracking-tight">Your classes</h1>
          <p className="mt-1 mb-6 text-slate-600">{name}: tap a class for its roster, check-in and register.</p>
          <CoachClasses />
          <CoverRequests />
          <MyPay name={name} />
        </>
      )}
    </CoachOnly>
  );
}

/** /coach/classes/:classId: the roster with check-in and the printable register. */
export function CoachClassRoute() {
  const { classId = '' } = useParams();
  return <CoachOnly>{() => <CoachRoster classId={classId} />}</CoachOnly>;
}
