import { ClipboardCheck, Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { ClassRow } from '@/lib/supabase';
import { formatClassTime } from '@/lib/studio-time';
import { formatInLondon } from '../lib/studio-clock';
import { td, th } from './table-styles';

export const ADMIN_DATE_FORMAT = 'MMM d, yyyy';

/** Classes Management's table (spec section 2): Group is blue, other types purple; full capacity is red and says so. */
export function ClassesTable({
  classes,
  onEdit,
  onDelete,
  onRoster,
}: {
  classes: ClassRow[];
  onEdit: (row: ClassRow) => void;
  onDelete: (row: ClassRow) => void;
  onRoster: (row: ClassRow) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Class</th>
            <th scope="col" className={th}>Date &amp; Time</th>
            <th scope="col" className={th}>Trainer</th>
            <th scope="col" className={th}>Type</th>
            <th scope="col" className={th}>Capacity</th>
            <th scope="col" className={th}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {classes.map((row) => {
            const date = formatInLondon(row.start_time, ADMIN_DATE_FORMAT);
            const time = formatClassTime(row.start_time);
            const full = row.current_bookings >= row.capacity;
            const label = `${row.name} on ${date} at ${time}`;
            return (
              <tr key={row.id}>
                <td className={td}>
                  <div className="font-semibold text-slate-900">{row.name}</div>
                  <div className="text-xs text-slate-500">{row.duration} min</div>
                </td>
                <td className={`${td} whitespace-nowrap`}>
                  <div>{date}</div>
                  <div className="text-xs text-slate-500">{time}</div>
                </td>
                <td className={td}>{row.trainer}</td>
                <td className={td}>
                  <Badge tone={row.type === 'Group' ? 'info' : 'purple'}>{row.type}</Badge>
                </td>
                <td className={td}>
                  <span className={full ? 'font-semibold text-red-700' : 'text-slate-700'}>
                    {row.current_bookings}/{row.capacity}
                  </span>
                  {full && <span className="ml-2 text-xs font-semibold uppercase text-red-700">Full</span>}
                </td>
                <td className={td}>
                  <div className="flex gap-1">
                    <button
                      type="button"
                      onClick={() => onRoster(row)}
                      aria-label={`Roster for ${label}`}
                      className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
                    >
                      <ClipboardCheck aria-hidden="true" className="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      onClick={() => onEdit(row)}
                      aria-label={`Edit ${label}`}
                      className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-blue-700 hover:bg-blue-50"
                    >
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      onClick={() => onDelete(row)}
                      aria-label={`Delete ${label}`}
                      className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50"
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
