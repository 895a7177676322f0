import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { CardTableStylesContext, cardTableStyles, th, useCardTableStyles, type CardTableFrom } from './table-styles';

/**
 * An admin list (Classes, Bookings, Members) that is a table from `from` up (`lg`, or `xl` for a
 * table too wide for a 1024 px screen beside the sidebar) and, below it, a column of cards: each
 * row stacks its facts under their column names with its actions in full view, so a phone never
 * scrolls sideways to reach Edit or Delete. One structure at every width, restyled by
 * CSS alone: screen readers and tests meet each row, cell and button once, by the same names. The
 * header row stays in the table for screen readers (visually hidden on a card), and the explicit
 * roles keep the table a table for them whatever its CSS display.
 */
export function CardTable({ columns, from = 'lg', children }: { columns: readonly string[]; from?: CardTableFrom; children: ReactNode }) {
  const styles = cardTableStyles(from);
  return (
    <CardTableStylesContext.Provider value={styles}>
      <div className={styles.scroller}>
        <table role="table" className={styles.table}>
          <thead role="rowgroup" className={styles.thead}>
            <tr role="row">
              {columns.map((c) => (
                <th key={c} role="columnheader" scope="col" className={th}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className={styles.tbody}>
            {children}
          </tbody>
        </table>
      </div>
    </CardTableStylesContext.Provider>
  );
}

/** A row: a card of two columns of facts, or a table row. */
export function CardRow({ children }: { children: ReactNode }) {
  return (
    <tr role="row" className={useCardTableStyles().row}>
      {children}
    </tr>
  );
}

type CellProps = { className?: string; children: ReactNode };

/** The row's first cell (who or what it is): the card's heading line, across the card. */
export function TitleCell({ className, children }: CellProps) {
  return (
    <td role="cell" className={cn(useCardTableStyles().cell, 'col-span-2', className)}>
      {children}
    </td>
  );
}

/** A fact, shown on a card under `label` (its column's name); `wide` spans the card; `nowrap` in the table. */
export function FactCell({
  label,
  wide = false,
  nowrap = false,
  className,
  children,
}: CellProps & { label: string; wide?: boolean; nowrap?: boolean }) {
  const styles = useCardTableStyles();
  return (
    <td role="cell" data-label={label} className={cn(styles.cell, styles.label, wide && 'col-span-2', nowrap && styles.nowrap, className)}>
      {children}
    </td>
  );
}

/** The row's buttons: a wrapping row across the bottom of a card, side by side in the table; `note` below them. */
export function ActionsCell({ children, note }: { children: ReactNode; note?: ReactNode }) {
  const styles = useCardTableStyles();
  return (
    <td role="cell" className={cn(styles.cell, styles.actions)}>
      <div className={styles.actionsRow}>{children}</div>
      {note}
    </td>
  );
}
