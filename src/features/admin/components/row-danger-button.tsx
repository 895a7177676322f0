import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { useCardTableStyles } from './table-styles';

/** A table row's destructive action (Cancel, Remove): red icon and word, named for its row; outlined on a phone, as CardTable's row buttons are. */
export function RowDangerButton({
  label,
  icon,
  onClick,
  children,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cn(
        'inline-flex min-h-10 items-center gap-1 rounded-lg px-3 text-sm font-medium text-red-700 hover:bg-red-50',
        useCardTableStyles().button,
      )}
    >
      {icon}
      {children}
    </button>
  );
}
