import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import { adjustSpots } from '@/lib/rules/spots';
import type { ClassRow } from '@/lib/supabase';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import { BookClassForm } from '../book-class/book-class-form';
import { getClassById } from '../book-class/get-class-by-id';

const MINUTE = 60_000;

/** /book?classId=: the booking form. A missing or failed class lookup returns to /schedule (spec section 4). */
export function BookClassPage() {
  const [params] = useSearchParams();
  const classId = params.get('classId');
  const navigate = useNavigate();
  const { user, member, memberLoading } = useAuth();
  const now = useNow(MINUTE);
  const [loaded, setLoaded] = useState<{ id: string; cls: ClassRow } | null>(null);

  useEffect(() => {
    if (!classId) return;
    let active = true;
    getClassById(classId).then(
      (cls) => {
        if (!active) return;
        if (cls) setLoaded({ id: classId, cls });
        else void navigate('/schedule', { replace: true });
      },
      () => active && void navigate('/schedule', { replace: true }),
    );
    return () => {
      active = false;
    };
  }, [classId, navigate]);

  if (!classId) return <Navigate to="/schedule" replace />;
  const cls = loaded?.id === classId ? loaded.cls : null;
  if (!cls || memberLoading) return <Spinner label="Loading class" />;

  const taken = cls.capacity - cls.spots_left;
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <Link to="/schedule" className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 hover:underline">
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
          <div>
            <dt className="font-medium text-slate-500">Spots taken</dt>
            <dd className="text-slate-900">
              {taken} / {cls.capacity}
              {cls.spots_left <= 0 && ' (Fully Booked)'}
            </dd>
          </div>
        </dl>
        <div className="mt-6 border-t border-slate-200 pt-6">
          <BookClassForm
            cls={cls}
            email={user?.email ?? ''}
            member={member}
            now={now}
            onBooked={(spotsLeft) =>
              setLoaded((l) => (l ? { ...l, cls: { ...l.cls, spots_left: spotsLeft ?? adjustSpots(l.cls.spots_left, -1, l.cls.capacity) } } : l))
            }
          />
        </div>
      </Card>
    </section>
  );
}
