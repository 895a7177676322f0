import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@/components/ui/cn';
import type { ScheduleDay } from './schedule-days';

type Props = {
  days: ScheduleDay[];
  /** The day shown ("2026-11-26"), or null for every day. */
  selected: string | null;
  onSelect: (day: string | null) => void;
};

type Chip = { key: string | null; name: string; date: string };
const ALL_DAYS: Chip = { key: null, name: 'All', date: 'days' };

/**
 * The row the picker sits in, of one height whether the chips have arrived or not (the prerendered
 * page shows the placeholder: nothing below moves when the picker replaces it). The height holds a
 * chip, its focus ring and a desktop's scroll bar; the row bleeds to the screen's edges on a phone
 * and scrolls sideways inside itself, never the page.
 */
const ROW = '-mx-4 mb-6 h-[4.75rem] overflow-x-auto overflow-y-hidden px-4 pt-1.5 [scrollbar-width:thin]';
const CHIP = 'flex h-14 min-w-[4.5rem] shrink-0 flex-col items-center justify-center rounded-xl px-3 text-sm leading-tight';

/**
 * /schedule's day chips: "All days", today, tomorrow and the days after, each a toggle
 * button (aria-pressed) in a toolbar: one Tab stop (the chip pressed), arrow keys, Home and End
 * move along the chips, Enter or Space picks one.
 */
export function DayPicker({ days, selected, onSelect }: Props) {
  const chips: Chip[] = [ALL_DAYS, ...days];
  const selectedIndex = Math.max(
    0,
    chips.findIndex((chip) => chip.key === selected),
  );
  // The chip that takes Tab (roving tabindex): the pressed one until the arrow keys move on.
  const [roving, setRoving] = useState<number | null>(null);
  const current = roving ?? selectedIndex;
  const scroller = useRef<HTMLDivElement>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  // The pressed chip is in view, e.g. a shared link's day ten chips along; only the row scrolls.
  useEffect(() => {
    const row = scroller.current;
    const chip = buttons.current[selectedIndex];
    if (!row || !chip) return;
    const left = chip.offsetLeft - row.offsetLeft;
    if (left < row.scrollLeft || left + chip.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left - 16;
  }, [selectedIndex]);

  function onKeyDown(event: KeyboardEvent) {
    const last = chips.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? Math.min(current + 1, last)
        : event.key === 'ArrowLeft'
          ? Math.max(current - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setRoving(next);
    buttons.current[next]?.focus();
  }

  return (
    <div ref={scroller} className={ROW}>
      <div role="toolbar" aria-label="Choose a day" aria-orientation="horizontal" onKeyDown={onKeyDown} className="flex w-max gap-2 pb-1">
        {chips.map((chip, i) => {
          const pressed = i === selectedIndex;
          return (
            <button
              key={chip.key ?? 'all'}
              ref={(el) => {
                buttons.current[i] = el;
              }}
              type="button"
              aria-pressed={pressed}
              tabIndex={i === current ? 0 : -1}
              onFocus={() => setRoving(i)}
              onClick={() => {
                setRoving(null);
                onSelect(chip.key);
              }}
              className={cn(
                CHIP,
                pressed
                  ? 'bg-brand-600 text-white shadow-sm'
                  : 'bg-white text-slate-700 ring-1 ring-inset ring-slate-200 hover:bg-slate-50 hover:text-slate-900',
              )}
            >
              <span className="font-semibold">{chip.name}</span>{' '}
              <span className={cn('text-xs', pressed ? 'text-white' : 'text-slate-500')}>{chip.date}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** The picker's place before the app knows what today is (the prerendered page): same height, no controls. */
export function DayPickerPlaceholder() {
  return (
    <div aria-hidden="true" className={ROW}>
      <div className="flex w-max gap-2 pb-1">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className={cn(CHIP, 'animate-pulse bg-slate-200')} />
        ))}
      </div>
    </div>
  );
}
