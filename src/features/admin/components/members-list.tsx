import { useState } from 'react';
import { Crown, Star, Trash2, Users, Wallet } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { getMembersPage, useMembersPage, type AdminMember, type MemberFilter } from '../api/get-members';
import { useMemberTierCounts, type MemberTierCounts } from '../api/get-member-tier-counts';
import { useDeleteMember } from '../api/delete-member';
import { EmptyState } from './empty-state';
import { ExportCsvButton } from './export-csv-button';
import { TablePanel } from './table-panel';
import { PageHeading } from './page-heading';
import { PlanStatusCell, NextRenewalCell, MemberFilterSelect } from './member-plan-cells';
import { MemberCreditsDialog } from './member-credits-dialog';
import { PauseMemberDialog } from './pause-member-dialog';
import { PutOnPlanDialog } from './put-on-plan-dialog';
import { MemberAttendanceDialog } from './member-attendance-dialog';
import { SearchBox } from './search-box';
import { ListFooter } from './list-footer';
import { StatCard } from './stat-card';
import { TierBadge } from './tier-badge';
import { ADMIN_MESSAGES } from '../lib/messages';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { MEMBER_CSV_COLUMNS } from '../lib/export-csv';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { useListSearch } from '../lib/use-list-search';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { RowIconButton } from './row-icon-button';

const COLUMNS = ['Member', 'Membership', 'Plan Status', 'Next Renewal', 'Total Bookings', 'Joined', 'Actions'] as const;

/** Members Management (spec section 2): tier cards over every member, and the searched, paged list. */
export function MembersList() {
  const { page, setPage, search, setSearch, term, searching } = useListSearch();
  const [filter, setFilter] = useState<MemberFilter>('all');
  const [puttingOnPlan, setPuttingOnPlan] = useState<AdminMember | null>(null);
  const [viewingAttendance, setViewingAttendance] = useState<AdminMember | null>(null);
  const [creditsOf, setCreditsOf] = useState<AdminMember | null>(null);
  const [pausing, setPausing] = useState<AdminMember | null>(null);
  const list = useMembersPage(page, term, filter);
  // The cards count every member on the server, whatever the search or page.
  const tiers = useMemberTierCounts();
  const deleteMember = useDeleteMember();
  useErrorToast(list.isError || tiers.isError, ADMIN_MESSAGES.membersLoadFailed);

  function remove(member: AdminMember) {
    confirmThenMutate(`Delete ${member.name || member.email}? Their bookings are deleted too.`, deleteMember, member.id, {
      success: ADMIN_MESSAGES.memberDeleted,
      failure: ADMIN_MESSAGES.memberDeleteFailed,
    });
  }

  const state = list.isPending ? 'loading' : list.isError ? 'error' : 'ready';
  const shown = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const figure = (key: keyof MemberTierCounts) => tiers.data?.[key] ?? '—';

  return (
    <section>
      <PageHeading
        title="Members Management"
        action={<ExportCsvButton load={getMembersPage} search={search} columns={MEMBER_CSV_COLUMNS} noun="members" />}
      />
      {/* Two across on a phone: four cards stacked were a screen tall. */}
      <div data-testid="member-figures" className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard label="Total Members" value={figure('total')} icon={<Users aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Premium" value={figure('premium')} icon={<Crown aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Standard" value={figure('standard')} icon={<Star aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Pay as You Go" value={figure('payg')} icon={<Wallet aria-hidden="true" className="h-5 w-5" />} />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <SearchBox label="Search members" placeholder="Search by name or email..." value={search} onChange={setSearch} />
        <MemberFilterSelect
          value={filter}
          onChange={(next) => {
            setFilter(next);
            setPage(0);
          }}
        />
      </div>
      <TablePanel>
        {state === 'loading' && <Spinner label="Loading members" />}
        {state === 'error' && <EmptyState title={ADMIN_MESSAGES.membersLoadFailed} body="Refresh the page to try again." />}
        {state === 'ready' && total === 0 && !searching && (
          <EmptyState
            title="No members yet"
            body="Members will appear here once they sign up."
            icon={<Users aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {state === 'ready' && shown.length === 0 && searching && (
          <EmptyState title="No members found" body="Try adjusting your search terms" />
        )}
        {shown.length > 0 && (
          <CardTable columns={COLUMNS} from="xl">
            {shown.map((m) => (
              <CardRow key={m.id}>
                <TitleCell>
                  <div className="font-semibold text-slate-900">{m.name || '—'}</div>
                  <div className="text-xs text-slate-500">{m.email}</div>
                </TitleCell>
                <FactCell label="Membership">
                  <TierBadge tier={m.membership_tier} />
                </FactCell>
                <FactCell label="Plan Status">
                  <PlanStatusCell plan={m.plan} />
                </FactCell>
                <FactCell label="Next Renewal" nowrap>
                  <NextRenewalCell plan={m.plan} />
                </FactCell>
                <FactCell label="Total Bookings">{m.bookingsCount}</FactCell>
                <FactCell label="Joined" nowrap>
                  {formatInLondon(m.created_at, DATE_FORMATS.date)}
                </FactCell>
                <ActionsCell>
                  <RowIconButton label={`Attendance: ${m.name || m.email}`} tone="brand" onClick={() => setViewingAttendance(m)}>
                    Attendance
                  </RowIconButton>
                  <RowIconButton label={`Put on plan: ${m.name || m.email}`} tone="brand" onClick={() => setPuttingOnPlan(m)}>
                    Put on plan
                  </RowIconButton>
                  {m.plan?.status === 'active' && !m.plan.ended_at && (
                    <RowIconButton label={`Pause: ${m.name || m.email}`} tone="brand" onClick={() => setPausing(m)}>
                      Pause
                    </RowIconButton>
                  )}
                  <RowIconButton label={`Credits: ${m.name || m.email}`} tone="brand" onClick={() => setCreditsOf(m)}>
                    Credits
                  </RowIconButton>
                  <RowIconButton
                    label={`Delete ${m.name || m.email}`}
                    word="Delete"
                    tone="danger"
                    icon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                    onClick={() => remove(m)}
                  />
                </ActionsCell>
              </CardRow>
            ))}
          </CardTable>
        )}
        {state === 'ready' && (total > 0 || searching) && (
          <ListFooter
            shown={shown.length}
            total={total}
            overall={term ? tiers.data?.total : null}
            noun="members"
            page={page}
            onPage={setPage}
          />
        )}
      </TablePanel>
      {pausing && <PauseMemberDialog member={pausing} onClose={() => setPausing(null)} />}
      {puttingOnPlan && <PutOnPlanDialog member={puttingOnPlan} onClose={() => setPuttingOnPlan(null)} />}
      {viewingAttendance && <MemberAttendanceDialog member={viewingAttendance} onClose={() => setViewingAttendance(null)} />}
      {creditsOf && <MemberCreditsDialog member={creditsOf} onClose={() => setCreditsOf(null)} />}
    </section>
  );
}
