import { DoorCodeCheckIn } from '@/features/booking/components/door-code-check-in';

/** /check-in: a member checks in to their booked class with the day's door code. */
export function CheckInRoute() {
  return (
    <section className="mx-auto max-w-md px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Check in</h1>
      <p className="mt-2 mb-6 text-slate-700">
        From 30 minutes before your class until 30 minutes after it starts, enter the code shown at the door.
      </p>
      <DoorCodeCheckIn />
    </section>
  );
}
