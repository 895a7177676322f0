import { CheckInSheet, DoorCode } from '@/features/admin/components/check-in-sheet';
import { PageHeading } from '@/features/admin/components/page-heading';

/** /admin/check-in: the studio's tablet or a coach's phone at the door. */
export function AdminCheckInRoute() {
  return (
    <>
      <PageHeading
        title="Check-in"
        subtitle="Today's classes. Tap a name to check them in; tap again to undo. Nobody checked in 30 minutes after the start becomes a no-show."
      />
      <DoorCode />
      <CheckInSheet />
    </>
  );
}
