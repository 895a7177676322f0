/** A loading indicator with an accessible name; `label` is announced to screen readers. */
export function Spinner({ label = 'Loading', className = '' }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={`flex items-center justify-center gap-2 py-10 text-slate-500 ${className}`}>
      {/* A CSS ring rather than an icon: the route fallback is on every page, and an icon is one more chunk. */}
      <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-[3px] border-current border-t-transparent" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
