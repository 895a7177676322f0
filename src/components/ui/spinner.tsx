import { Loader2 } from 'lucide-react';

/** A loading indicator with an accessible name; `label` is announced to screen readers. */
export function Spinner({ label = 'Loading', className = '' }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={`flex items-center justify-center gap-2 py-10 text-slate-500 ${className}`}>
      <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
