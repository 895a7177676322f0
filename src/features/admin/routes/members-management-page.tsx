import toast from 'react-hot-toast';
import { Crown, Star, Trash2, Users, Wallet } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { getMembersPage, type AdminMember } from '../api/get-members';
import { getMemberTierCounts, type MemberTierCounts } from '../api/get-member-tier-counts';
import { useResource } from '../hooks/use-resource';
import { deleteMember } from '../api/delete-member';
import { ADMIN_DATE_FORMAT } from '../components/classes-table';
import { EmptyState } from '../components/empty-state';
import { ExportCsvButton } from '../components/export-csv-button';
import { TablePanel } from '../components/table-panel';
import { PageHeading } from '../components/page-heading';
import { SearchBox } from '../components/search-box';
import { ListFooter } from '../components/list-footer';
import { usePagedList } from '../hooks/use-paged-list';
import { StatCard } from '../components/stat-card';
import { TierBadge } from '../components/tier-badge';
import { ADMIN_MESSAGES } from '../messages';
import { MEMBER_CSV_COLUMNS } from '../utils/export-csv';
import { formatInLondon } from '../utils/studio-clock';
import { td, th } from '../components/table-styles';

export function MembersManagementPage() {
  const { state, page, setPage, search, setSearch, searching, removeRow } = usePagedList(getMembersPage, ADMIN_MESSAGES.membersLoadFailed);
  // The cards count every member on the server, whatever the search or page.
  const { state: tiers, reload: reloadTiers } = useResource(getMemberTierCounts, ADMIN_MESSAGES.membersLoadFailed);

  async function remove(member: AdminMember) {
    if (!window.confirm(`Delete ${member.name || member.email}? Their bookings are deleted too.`)) return;
    try {
      await deleteMember(member.id);
      removeRow((r) => r.id !== member.id);
      reloadTiers();
      toast.success(ADMIN_MESSAGES.memberDeleted);
    } catch {
      toast.error(ADMIN_MESSAGES.memberDeleteFailed);
    }
  }

  const shown = state.status === 'ready' ? state.rows : [];
  const total = state.status === 'ready' ? state.total : 0;
  const figure = (key: keyof MemberTierCounts) => (tiers.status === 'ready' ? tiers.data[key] : '—');

  return (
    <section>
      <PageHeading title="Members Management" action={<ExportCsvButton load={getMembersPage} search={search} columns={MEMBER_CSV_COLUMNS} noun="members" />} />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Members" value={figure('total')} icon={<Users aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Premium" value={figure('premium')} icon={<Crown aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Standard" value={figure('standard')} icon={<Star aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Pay as You Go" value={figure('payg')} icon={<Wallet aria-hidden="true" className="h-5 w-5" />} />
      </div>
      <div className="mb-4 flex">
        <SearchBox label="Search members" placeholder="Search by name or email..." value={search} onChange={setSearch} />
      </div>
      <TablePanel>
        {state.status === 'loading' && <Spinner label="Loading members" />}
        {state.status === 'error' && <EmptyState title={ADMIN_MESSAGES.membersLoadFailed} body="Refresh the page to try again." />}
        {state.status === 'ready' && total === 0 && !searching && (
          <EmptyState title="No members yet" body="Members will appear here once they sign up." icon={<Users aria-hidden="true" className="h-10 w-10" />} />
        )}
        {state.status === 'ready' && shown.length === 0 && searching && <EmptyState title="No members found" body="Try adjusting your search terms" />}
        {shown.length > 0 && (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>Member</th>
                  <th scope="col" className={th}>Membership</th>
                  <th scope="col" className={th}>Total Bookings</th>
                  <th scope="col" className={th}>Joined</th>
                  <th scope="col" className={th}>Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 bg-white">
                {shown.map((m) => (
                  <tr key={m.id}>
                    <td className={td}>
                      <div className="font-semibold text-slate-900">{m.name || '—'}</div>
                      <div className="text-xs text-slate-500">{m.email}</div>
                    </td>
                    <td className={td}>
                      <TierBadge tier={m.membership_tier} />
                    </td>
                    <td className={td}>{m.bookingsCount}</td>
                    <td className={`${td} whitespace-nowrap`}>{formatInLondon(m.created_at, ADMIN_DATE_FORMAT)}</td>
                    <td className={td}>
                      <button
                        type="button"
                        onClick={() => void remove(m)}
                        aria-label={`Delete ${m.name || m.email}`}
                        className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50"
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {state.status === 'ready' && (total > 0 || searching) && <ListFooter shown={shown.length} total={total} noun="members" page={page} onPage={setPage} />}
      </TablePanel>
    </section>
  );
}
