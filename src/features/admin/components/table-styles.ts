import { createContext, useContext } from 'react';

/** The admin tables' header and body cell classes, shared so every table lines up the same way. */
export const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
export const td = 'px-4 py-3 align-top text-sm text-slate-700';

/** The width from which a CardTable (card-table.tsx) is a table: below it, each row is a card. */
export type CardTableFrom = 'lg' | 'xl';

/**
 * A CardTable's classes, for each width it can become a table from (Tailwind reads class names
 * whole, so each is written out). Below that width: the table and its body are blocks, the header
 * row is for screen readers only, a row is a card with two columns of facts, each fact under its
 * column's name (the cell's data-label), and long words (an email address) break inside the card.
 */
const CARD_TABLE_STYLES = {
  lg: {
    scroller: 'lg:overflow-x-auto',
    table: 'relative block w-full lg:table lg:min-w-full lg:divide-y lg:divide-slate-200',
    thead: 'sr-only bg-slate-50 lg:not-sr-only',
    tbody: 'block divide-y divide-slate-100 bg-white lg:table-row-group',
    row: 'grid grid-cols-2 gap-x-4 gap-y-3 px-4 py-4 lg:table-row lg:p-0',
    cell: 'block min-w-0 text-sm text-slate-700 [overflow-wrap:anywhere] lg:table-cell lg:px-4 lg:py-3 lg:align-top lg:[overflow-wrap:normal]',
    label:
      'before:mb-0.5 before:block before:text-xs before:font-semibold before:uppercase before:tracking-wide before:text-slate-500 before:content-[attr(data-label)] lg:before:hidden',
    actions: 'col-span-2 border-t border-slate-100 pt-3 lg:border-t-0',
    actionsRow: 'flex flex-wrap items-center gap-2',
    nowrap: 'lg:whitespace-nowrap',
    /** A row's button: outlined on a card, bare in the table. */
    button: 'ring-1 ring-inset ring-slate-200 lg:ring-0',
    iconButton: 'px-3 lg:px-0',
    /** The word beside a row button's icon, shown on a card only (the table's column says "Actions"). */
    word: 'lg:hidden',
  },
  xl: {
    scroller: 'xl:overflow-x-auto',
    table: 'relative block w-full xl:table xl:min-w-full xl:divide-y xl:divide-slate-200',
    thead: 'sr-only bg-slate-50 xl:not-sr-only',
    tbody: 'block divide-y divide-slate-100 bg-white xl:table-row-group',
    row: 'grid grid-cols-2 gap-x-4 gap-y-3 px-4 py-4 xl:table-row xl:p-0',
    cell: 'block min-w-0 text-sm text-slate-700 [overflow-wrap:anywhere] xl:table-cell xl:px-4 xl:py-3 xl:align-top xl:[overflow-wrap:normal]',
    label:
      'before:mb-0.5 before:block before:text-xs before:font-semibold before:uppercase before:tracking-wide before:text-slate-500 before:content-[attr(data-label)] xl:before:hidden',
    actions: 'col-span-2 border-t border-slate-100 pt-3 xl:border-t-0',
    actionsRow: 'flex flex-wrap items-center gap-2',
    nowrap: 'xl:whitespace-nowrap',
    button: 'ring-1 ring-inset ring-slate-200 xl:ring-0',
    iconButton: 'px-3 xl:px-0',
    word: 'xl:hidden',
  },
} as const satisfies Record<CardTableFrom, Record<string, string>>;

export type CardTableStyles = (typeof CARD_TABLE_STYLES)[CardTableFrom];
export const cardTableStyles = (from: CardTableFrom): CardTableStyles => CARD_TABLE_STYLES[from];

/** The styles of the CardTable around a row, cell or button (CardTable provides them; `lg` outside one). */
export const CardTableStylesContext = createContext<CardTableStyles>(CARD_TABLE_STYLES.lg);
export const useCardTableStyles = () => useContext(CardTableStylesContext);
