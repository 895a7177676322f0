import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { formatClassDateTime } from '@/lib/studio-time';
import { BookingRefused } from '../api/book-class';
import { useCancelGuestPlace } from '../api/cancel-guest-place';
import { useGuestPlace, type GuestPlace } from '../api/get-guest-place';
import { GUEST_CANCEL_MESSAGES } from '../lib/guest-cancel-messages';

/** Said when the link has no token at all (cut short by a mail app). */
export const INCOMPLETE_LINK = 'This link is not complete: open it from your email again.';

/** The database's words for a link that is used, unknown or for a class already started; null for anything else. */
function linkRefusal(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { hint, message } = error as { hint?: unknown; message?: unknown };
  return (hint === 'guest_not_found' || hint === 'class_started') && typeof message === 'string' ? message : null;
}

/**
 * /guest/cancel?token=…: where a guest's "Cancel my guest place" link lands. It names the class,
 * its time and the host first; nothing is cancelled until the guest presses the button (mail
 * scanners open links too), then it says what was cancelled. A used link says so when it opens.
 */
export function GuestCancelPanel({ token }: { token: string }) {
  const place = useGuestPlace(token);
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Cancel your guest place</h1>
        {!token ? (
          <p role="alert" className="mt-4 text-red-700">
            {INCOMPLETE_LINK}
          </p>
        ) : place.isPending ? (
          <Spinner label={GUEST_CANCEL_MESSAGES.loading} />
        ) : place.isError ? (
          <LoadError error={place.error} onRetry={() => void place.refetch()} />
        ) : (
          <CancelPlace token={token} place={place.data} />
        )}
        <Link to={paths.schedule} className="mt-6 inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline">
          See the class schedule
        </Link>
      </Card>
    </section>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const gone = linkRefusal(error);
  if (gone) {
    return (
      <div role="alert" className="mt-4">
        <h2 className="text-lg font-semibold text-slate-900">{GUEST_CANCEL_MESSAGES.linkGone}</h2>
        <p className="mt-2 text-slate-700">{gone}</p>
        <p className="mt-2 text-slate-700">{GUEST_CANCEL_MESSAGES.linkGoneHelp}</p>
      </div>
    );
  }
  return (
    <div className="mt-4">
      <p role="alert" className="text-red-700">
        {GUEST_CANCEL_MESSAGES.loadFailed}
      </p>
      <Button variant="outline" className="mt-4" onClick={onRetry}>
        {GUEST_CANCEL_MESSAGES.tryAgain}
      </Button>
    </div>
  );
}

function CancelPlace({ token, place }: { token: string; place: GuestPlace }) {
  const cancel = useCancelGuestPlace();
  const done = cancel.data;
  const refusal =
    cancel.error instanceof BookingRefused ? cancel.error.error.message : cancel.error ? GUEST_CANCEL_MESSAGES.cancelFailed : null;
  if (done) {
    return (
      <p role="status" className="mt-4 text-slate-700">
        Your guest place on {done.class_name}
        {done.start_time ? `, ${formatClassDateTime(new Date(done.start_time))},` : ''} with {done.host_name} is cancelled. Thank you for
        letting us know.
      </p>
    );
  }
  return (
    <>
      <p className="mt-4 text-slate-700">
        {GUEST_CANCEL_MESSAGES.booked(place.host_name, place.class_name, formatClassDateTime(new Date(place.start_time)))}
      </p>
      <p className="mt-4 text-slate-700">
        Cannot come after all? Cancel your place so someone else can have it. The member who invited you keeps their booking.
      </p>
      {refusal && (
        <p role="alert" className="mt-4 text-red-700">
          {refusal}
        </p>
      )}
      <Button className="mt-6 w-full" variant="danger" loading={cancel.isPending} onClick={() => cancel.mutate(token)}>
        Cancel my guest place
      </Button>
    </>
  );
}
