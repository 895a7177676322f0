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
  return (
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
      <span className="min-w-0 truncate">
        Check in {name}
        {attendance === 'no_show' && ' (marked no-show)'}
        {note}
      </span>
      {checkedIn && <span aria-hidden="true">✓</span>}
    </button>
  );
}
