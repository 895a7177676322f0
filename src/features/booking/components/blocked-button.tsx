import { cn } from '@/components/ui/cn';
import type { blockedLabel } from '../lib/class-facts';

const TONES = {
  // The member's own booking or hold.
  held: 'border-brand-300 bg-brand-50 text-brand-900',
  // Why it cannot be booked ("Locked", "Fully Booked"): dark text on a light ground, full strength,
  // not a faded primary button (the labels were too faint to read).
  refused: 'border-slate-300 bg-slate-100 text-slate-800',
} as const;

/** Why a class cannot be booked, said on a disabled button. */
export function BlockedButton({ blocked }: { blocked: NonNullable<ReturnType<typeof blockedLabel>> }) {
  return (
    <button
      type="button"
      disabled
      className={cn(
        'inline-flex min-h-11 w-full cursor-not-allowed items-center justify-center gap-2 rounded-lg border px-4 text-sm font-semibold',
        TONES[blocked.tone],
      )}
    >
      {blocked.label}
    </button>
  );
}
