import type { ReactNode } from 'react';

/** A table row's destructive action (Cancel, Remove): red icon and word, named for its row. */
export function RowDangerButton({ label, icon, onClick, children }: { label: string; icon: ReactNode; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="inline-flex min-h-10 items-center gap-1 rounded-lg px-2 text-sm font-medium text-red-700 hover:bg-red-50"
    >
      {icon}
      {children}
    </button>
  );
}
