import { useState } from 'react';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { useMemberDocuments, useMemberSignatures, type MemberDocuments } from '../api/documents-admin';
import { DOCUMENT_NAMES } from '@/config/documents';
import { EmptyState } from './empty-state';
import { TablePanel } from './table-panel';
import { td, th } from './table-styles';

const v = (version: number | null | undefined) => (version ? `v${version}` : '—');
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** Who has signed which version of the booking documents, who has not (filter), and each member's record. */
export function MemberDocumentsPanel() {
  const [unsignedOnly, setUnsignedOnly] = useState(false);
  const members = useMemberDocuments(unsignedOnly);
  const [open, setOpen] = useState<MemberDocuments | null>(null);

  return (
    <section aria-labelledby="member-documents" className="mt-10">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="member-documents" className="text-xl font-semibold">
          Who has signed
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={unsignedOnly}
            onChange={(e) => setUnsignedOnly(e.target.checked)}
            className="h-5 w-5 accent-brand-600"
          />
          Only members who have not signed the current versions
        </label>
      </div>
      <TablePanel>
        {members.isPending ? (
          <Spinner label="Loading signatures" />
        ) : members.isError ? (
          <EmptyState title="Could not load signatures" body="Reload the page to try again." />
        ) : members.data.length === 0 ? (
          <EmptyState title="Everyone has signed" body="No member is missing the current terms, waiver or health questions." />
        ) : (
          <table className="w-full">
            <thead>
              <tr>
                <th className={th}>Member</th>
                <th className={th}>Terms</th>
                <th className={th}>Waiver</th>
                <th className={th}>PAR-Q</th>
                <th className={th}>Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {members.data.map((m) => (
                <tr key={m.member_id}>
                  <td className={td}>
                    <button
                      type="button"
                      onClick={() => setOpen(m)}
                      className="text-left font-semibold text-brand-700 underline"
                      aria-label={`Signatures of ${m.name ?? m.email}`}
                    >
                      {m.name ?? m.email}
                    </button>
                    <div className="text-xs text-slate-500">{m.email}</div>
                  </td>
                  <td className={td}>{v(m.terms_version)}</td>
                  <td className={td}>{v(m.waiver_version)}</td>
                  <td className={td}>
                    {v(m.parq_version)}
                    {m.health_flag && (
                      <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Health: ask</span>
                    )}
                  </td>
                  <td className={td}>{m.all_current ? 'Signed' : <span className="font-semibold text-red-700">Not signed</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </TablePanel>
      <Modal open={open !== null} onClose={() => setOpen(null)} title={open ? `Signatures: ${open.name ?? open.email}` : 'Signatures'}>
        {open && <SignatureRecord memberId={open.member_id} />}
      </Modal>
    </section>
  );
}

function SignatureRecord({ memberId }: { memberId: string }) {
  const record = useMemberSignatures(memberId);
  if (record.isPending) return <Spinner label="Loading the record" />;
  if (record.isError) return <p role="alert">Could not load the record.</p>;
  if (record.data.length === 0) return <p className="text-sm text-slate-600">Nothing signed yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {record.data.map((row) => (
        <li key={row.id} className="py-2">
          <div className="font-semibold">
            {DOCUMENT_NAMES[row.document.kind]} version {row.document.version}
          </div>
          <div className="text-slate-600">
            Signed “{row.signed_name}” on {when(row.accepted_at)}
          </div>
        </li>
      ))}
    </ul>
  );
}
