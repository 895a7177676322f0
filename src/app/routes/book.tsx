import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import { isClassId } from '@/features/booking/api/book-class';
import { useCreditForClass } from '@/features/booking/api/get-credit-for-class';
import { useScheduleClass } from '@/features/booking/api/get-class-schedule';
import { usePlanUsage } from '@/features/booking/api/get-plan-usage';
import { useViewer } from '@/features/booking/api/use-viewer';
import { BookClassForm } from '@/features/booking/components/book-class-form';
import { FamilyBookingForm } from '@/features/booking/components/family-booking-form';
import { useMyDependants } from '@/features/family/api/dependants';
import { isOneToOne, takesClassCredit } from '@/features/booking/lib/booking-type';
import { ageRangeText, takesChildren } from '@/features/booking/lib/class-facts';

const MINUTE = 60_000;

/** /book?classId=: the booking form. A missing or failed class lookup returns to /schedule (spec section 4). */
export function BookRoute() {
  const [params] = useSearchParams();
  const classId = params.get('classId') ?? '';
  const { user } = useAuth();
  const { viewer, ready, memberId } = useViewer();
  const valid = isClassId(classId);
  const query = useScheduleClass(classId, viewer, ready && valid);
  // The allowance is only said once the class is known (and never for a class that is not there).
  const usage = usePlanUsage(query.data ? memberId : null);
  // A One-to-One session says what it would use (a credit, or its price) before the form shows; a
  // group class the server would send to the card checkout whether a class credit could book it
  // instead (decision 0102).
  const oneToOne = query.data ? isOneToOne(query.data) : false;
  const usesCredit = query.data ? oneToOne || (takesClassCredit(query.data) && query.data.needs_payment === true) : false;
  const credit = useCreditForClass(memberId, classId, usesCredit);
  // A class that takes children asks a parent who is coming (family accounts, decision 0094).
  const forChildren = query.data ? takesChildren(query.data) : false;
  const family = useMyDependants(forChildren && !oneToOne ? memberId : null);
  const now = useNow(MINUTE);

  if (!valid || query.isError || (query.isSuccess && query.data === null)) return <Navigate to={paths.schedule} replace />;
  const cls = query.data;
  if (!cls || (usesCredit && memberId !== null && credit.isPending)) return <Spinner label="Loading class" />;
  if (forChildren && memberId !== null && family.isPending) return <Spinner label="Loading class" />;
  const children = family.data ?? [];
  const ages = ageRangeText(cls);

  const taken = cls.capacity - cls.spots_left;
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <Link to={paths.schedule} className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to Schedule
      </Link>
      <Card className="mt-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{cls.name}</h1>
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-slate-500">Time</dt>
            <dd className="text-slate-900">
              {formatClassDate(cls.start_time)}, {formatClassTime(cls.start_time)} ({cls.duration} min)
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">Trainer</dt>
            <dd className="text-slate-900">{cls.trainer}</dd>
          </div>
          {ages && (
            <div>
              <dt className="font-medium text-slate-500">For children</dt>
              <dd className="text-slate-900">{ages}</dd>
            </div>
          )}
          <div>
            <dt className="font-medium text-slate-500">Spots taken</dt>
            <dd className="text-slate-900">
              {taken} / {cls.capacity}
              {cls.spots_left <= 0 && ' (Fully Booked)'}
            </dd>
          </div>
        </dl>
        {children.length > 0 ? (
          // A parent on a class that takes children: who is coming, one step for everyone
          // (book_family, or one checkout), never their own place alone without asking.
          <div className="mt-6 border-t border-slate-200 pt-6">
            <h2 className="text-lg font-semibold text-slate-900">Book for your family</h2>
            <p className="mt-1 text-sm text-slate-600">
              Choose your children, and whether you come too: every place is booked together, or none.
            </p>
            <div className="mt-4">
              <FamilyBookingForm key={cls.id} cls={cls} childChoices={children} />
            </div>
          </div>
        ) : (
          <div className="mt-6 border-t border-slate-200 pt-6">
            {forChildren && memberId !== null && (
              <p className="mb-5 rounded-lg bg-blue-50 p-3 text-sm text-blue-900">
                Bringing a child? Add them on{' '}
                <Link to={paths.family} className="font-medium underline">
                  Family
                </Link>{' '}
                first, then book them here with you.
              </p>
            )}
            <BookClassForm key={cls.id} cls={cls} email={user?.email ?? ''} usage={usage.data} now={now} credit={credit.data} />
          </div>
        )}
      </Card>
    </section>
  );
}
