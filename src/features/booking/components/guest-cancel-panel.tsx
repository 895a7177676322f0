import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatClassDateTime } from '@/lib/studio-time';
import { BookingRefused } from '../api/book-class';
import { useCancelGuestPlace } from '../api/cancel-guest-place';

/** Said when the link has no token at all (cut short by a mail app). */
export const INCOMPLETE_LINK = 'This link is not complete: open it from your email again.';

/**
 * /guest/cancel?token=…: where a guest's "Cancel my guest place" link lands. Nothing happens until
 * the guest presses the button (mail scanners open links too), then it says what was cancelled.
 */
export function GuestCancelPanel({ token }: { token: string }) {
  const cancel = useCancelGuestPlace();
  const done = cancel.data;
  const refusal =
    cancel.error instanceof BookingRefused
      ? cancel.error.error.message
      : cancel.error
        ? 'Could not cancel your guest place, please try again.'
        : null;
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Cancel your guest place</h1>
        {!token && (
          <p role="alert" className="mt-4 text-red-700">
            {INCOMPLETE_LINK}
          </p>
        )}
        {token && !done && (
          <>
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
        )}
        {done && (
          <p role="status" className="mt-4 text-slate-700">
            Your guest place on {done.class_name}
            {done.start_time ? `, ${formatClassDateTime(new Date(done.start_time))},` : ''} with {done.host_name} is cancelled. Thank you
            for letting us know.
          </p>
        )}
        <Link to={paths.schedule} className="mt-6 inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline">
          See the class schedule
        </Link>
      </Card>
    </section>
  );
}
