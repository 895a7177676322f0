import { cn } from '@/components/ui/cn';

/**
 * A booked person at the door: tap to check them in, tap again to undo (aria-pressed says which).
 * The admin check-in sheet and the coach's roster (decision 0027) both use it.
 */
export function CheckInButton({
  name,
  attendance,
  note,
  disabled,
  onClick,
}: {
  name: string;
  attendance: 'attended' | 'no_show' | null;
  note?: string;
  disabled: boolean;
  onClick: () => void;
}) {
  const checkedIn = attendance === 'attended';
  const noShow = attendance === 'no_show' ? ' (marked no-show)' : '';
  return (
    // The whole name, wrapped, and the state in words (never a cut "Check in …" for a
    // checked-in member). The name a screen reader hears stays "Check in <name>" (a toggle: pressed =
    // checked in), from the content itself, so it always holds the words on screen.
    <button
      type="button"
      aria-pressed={checkedIn}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'flex min-h-14 w-full items-center justify-between gap-2 rounded-xl border px-4 text-left text-base font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60',
        checkedIn ? 'border-green-700 bg-green-700 text-white' : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
      )}
    >
      <span className="min-w-0 break-words py-2">
        <span className="block">
          <span className="sr-only">Check in</span> {name}
          {noShow}
          {note}
        </span>
        <span aria-hidden="true" className={cn('block text-sm font-medium', checkedIn ? 'text-white' : 'text-slate-600')}>
          {checkedIn ? 'Checked in' : 'Tap to check in'}
        </span>
      </span>
      {checkedIn && <span aria-hidden="true">✓</span>}
    </button>
  );
}
