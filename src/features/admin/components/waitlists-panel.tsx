import { Hourglass, UserMinus } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { formatClassTime } from '@/lib/studio-time';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useWaitlists, type AdminWaitlistEntry } from '../api/get-waitlists';
import { useRemoveFromWaitlist } from '../api/remove-from-waitlist';
import { ADMIN_MESSAGES } from '../lib/messages';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { groupWaitlists } from '../lib/waitlist-groups';
import { EmptyState } from './empty-state';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { PanelSection } from './panel-section';
import { RowDangerButton } from './row-danger-button';

/** Who waits for which upcoming class, in line order, with Remove for each member; a card each on a phone (CardTable). */
export function WaitlistsPanel() {
  const waitlists = useWaitlists();
  const removeFromWaitlist = useRemoveFromWaitlist();
  useErrorToast(waitlists.isError, ADMIN_MESSAGES.waitlistsLoadFailed);

  function remove(entry: AdminWaitlistEntry) {
    const who = entry.member.name || entry.member.email;
    confirmThenMutate(`Remove ${who} from the waitlist for ${entry.class.name}?`, removeFromWaitlist, entry.id, {
      success: ADMIN_MESSAGES.waitlistRemoved,
      failure: ADMIN_MESSAGES.waitlistRemoveFailed,
    });
  }

  const groups = waitlists.data ? groupWaitlists(waitlists.data) : [];
  return (
    <PanelSection id="waitlists-heading" title="Waitlists">
      {waitlists.isPending && <Spinner label="Loading waitlists" />}
      {waitlists.isError && <EmptyState title={ADMIN_MESSAGES.waitlistsLoadFailed} body="Refresh the page to try again." />}
      {waitlists.isSuccess && groups.length === 0 && (
        <EmptyState
          title="No one is waiting"
          body="When a class is full, members can join its waitlist; they will appear here in line order."
          icon={<Hourglass aria-hidden="true" className="h-10 w-10" />}
        />
      )}
      {groups.length > 0 && (
        <CardTable columns={['Class', 'Position', 'Member', 'Joined', 'Actions']}>
          {groups.flatMap((group) =>
            group.entries.map((e) => (
              <CardRow key={e.id}>
                <TitleCell>
                  <div className="font-semibold text-slate-900">{group.class.name}</div>
                  <div className="text-xs text-slate-500">
                    {formatInLondon(group.class.startTime, DATE_FORMATS.date)} · {formatClassTime(group.class.startTime)}
                  </div>
                </TitleCell>
                <FactCell label="Position">
                  #{e.position} of {group.entries.length}
                </FactCell>
                <FactCell label="Member">
                  <div className="font-semibold text-slate-900">{e.member.name || '—'}</div>
                  <div className="text-xs text-slate-500">{e.member.email}</div>
                </FactCell>
                <FactCell label="Joined" nowrap>
                  {formatInLondon(e.joinedAt, DATE_FORMATS.dateTime)}
                </FactCell>
                <ActionsCell>
                  <RowDangerButton
                    label={`Remove ${e.member.name || e.member.email} from the waitlist for ${group.class.name}`}
                    icon={<UserMinus aria-hidden="true" className="h-4 w-4" />}
                    onClick={() => remove(e)}
                  >
                    Remove
                  </RowDangerButton>
                </ActionsCell>
              </CardRow>
            )),
          )}
        </CardTable>
      )}
    </PanelSection>
  );
}
