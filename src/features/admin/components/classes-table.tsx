import { ClipboardCheck, Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { ClassRow } from '@/lib/supabase';
import { formatClassTime } from '@/lib/studio-time';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { RowIconButton } from './row-icon-button';

const COLUMNS = ['Class', 'Date & Time', 'Trainer', 'Type', 'Capacity', 'Actions'] as const;

/**
 * Classes Management's table (spec section 2): Group is blue, other types purple; full capacity is
 * red and says so. A card per class on a phone (CardTable), with Roster, Edit and Delete in view.
 */
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
    <CardTable columns={COLUMNS}>
      {classes.map((row) => {
        const date = formatInLondon(row.start_time, DATE_FORMATS.date);
        const time = formatClassTime(row.start_time);
        const full = row.current_bookings >= row.capacity;
        const label = `${row.name} on ${date} at ${time}`;
        return (
          <CardRow key={row.id}>
            <TitleCell>
              <div className="font-semibold text-slate-900">{row.name}</div>
              <div className="text-xs text-slate-500">{row.duration} min</div>
            </TitleCell>
            <FactCell label="Date & Time" nowrap>
              <div>{date}</div>
              <div className="text-xs text-slate-500">{time}</div>
            </FactCell>
            <FactCell label="Trainer">{row.trainer}</FactCell>
            <FactCell label="Type">
              <Badge tone={row.type === 'Group' ? 'info' : 'purple'}>{row.type}</Badge>
            </FactCell>
            <FactCell label="Capacity">
              <span className={full ? 'font-semibold text-red-700' : 'text-slate-700'}>
                {row.current_bookings}/{row.capacity}
              </span>
              {full && <span className="ml-2 text-xs font-semibold uppercase text-red-700">Full</span>}
            </FactCell>
            <ActionsCell>
              <RowIconButton
                label={`Roster for ${label}`}
                word="Roster"
                tone="neutral"
                icon={<ClipboardCheck aria-hidden="true" className="h-4 w-4" />}
                onClick={() => onRoster(row)}
              />
              <RowIconButton
                label={`Edit ${label}`}
                word="Edit"
                tone="info"
                icon={<Pencil aria-hidden="true" className="h-4 w-4" />}
                onClick={() => onEdit(row)}
              />
              <RowIconButton
                label={`Delete ${label}`}
                word="Delete"
                tone="danger"
                icon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                onClick={() => onDelete(row)}
              />
            </ActionsCell>
          </CardRow>
        );
      })}
    </CardTable>
  );
}
