import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatPounds } from '@/config/plans';
import { formatLondonDate } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import { formatDay, useCurrentPause, useEndPause, pauseErrorText } from '@/lib/membership-pause';
import { PauseDialog } from '@/components/membership/pause-dialog';

/**
 * The pause part of a running membership (decision 0050): the pause booked or running, with "End
 * pause now" (or "Withdraw pause" before it starts), else "Pause membership" when it may be paused.
 * `memberId` is set on the admin's member screen.
 */
export function PauseControls({ memberId, canPause, who }: { memberId: string | null; canPause: boolean; who?: string }) {
  const pause = useCurrentPause(memberId);
  const end = useEndPause(memberId);
  const [open, setOpen] = useState(false);

  async function endNow() {
    try {
      await end.mutateAsync();
      toast.success(pause.data?.running ? 'The pause has ended: plan classes can be booked again.' : 'The pause is withdrawn.');
    } catch (error) {
      toast.error(pauseErrorText(error, 'Could not end the pause, please try again.'));
    }
  }

  if (pause.isPending) return null;
  const p = pause.data;
  if (p) {
    return (
      <div role="status" className="rounded-xl border border-sky-200 bg-sky-50 p-4 text-sky-950">
        <p className="font-semibold">
          {p.running ? 'Paused' : 'Pause booked'}: {formatDay(p.startsOn)} to {formatDay(p.endsOn)}
        </p>
        <p className="mt-1">
          {p.holdFee === null ? 'No hold fee.' : `Hold fee ${formatPounds(p.holdFee)} a month.`} Next renewal:{' '}
          {formatLondonDate(p.renewalAfter)}.
        </p>
        <Button className="mt-3" variant="secondary" loading={end.isPending} onClick={() => void endNow()}>
          {p.running ? 'End pause now' : 'Withdraw pause'}
        </Button>
      </div>
    );
  }
  if (!canPause) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {who ? `Pause ${who}'s membership` : 'Pause membership'}
      </Button>
      {open && <PauseDialog memberId={memberId} who={who} onClose={() => setOpen(false)} />}
    </>
  );
}
