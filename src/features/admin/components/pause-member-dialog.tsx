import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { formatDay, useCurrentPause, useEndPause, pauseErrorText } from '@/lib/membership-pause';
import { PauseDialog } from '@/components/membership/pause-dialog';
import { formatLondonDate } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import type { AdminMember } from '../api/get-members';

/**
 * Members Management's Pause (decision 0050): an admin pauses any member's membership (from today,
 * up to 365 days, whatever the member limits say), or ends the pause they have.
 */
export function PauseMemberDialog({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  const who = member.name || member.email;
  const pause = useCurrentPause(member.id);
  const end = useEndPause(member.id);
  if (pause.isPending) {
    return (
      <Modal open onClose={onClose} title={`Pause ${who}'s membership`}>
        <Spinner label="Loading the pause" />
      </Modal>
    );
  }
  const p = pause.data;
  if (!p) return <PauseDialog memberId={member.id} who={who} onClose={onClose} />;

  async function endNow() {
    try {
      await end.mutateAsync();
      toast.success(p?.running ? `${who}'s pause has ended.` : `${who}'s pause is withdrawn.`);
      onClose();
    } catch (error) {
      toast.error(pauseErrorText(error, 'Could not end the pause, please try again.'));
    }
  }
  return (
    <Modal
      open
      onClose={onClose}
      title={`${who}'s pause`}
      description={`${p.running ? 'Paused' : 'Pause booked'}: ${formatDay(p.startsOn)} to ${formatDay(p.endsOn)}${p.byAdmin ? ' (set by the studio)' : ''}.`}
    >
      <p className="text-slate-800">
        {p.holdFee === null ? 'No hold fee.' : `Hold fee ${formatPounds(p.holdFee)} a month.`} Next renewal:{' '}
        {formatLondonDate(p.renewalAfter)}.
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Back
        </Button>
        <Button variant="danger" loading={end.isPending} onClick={() => void endNow()}>
          {p.running ? 'End pause now' : 'Withdraw pause'}
        </Button>
      </div>
    </Modal>
  );
}
