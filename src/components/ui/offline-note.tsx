import { WifiOff } from 'lucide-react';

/** Why an action is disabled while the browser is offline (lib/offline-notes.ts, decision 0019): said next to it, and named by its aria-describedby. */
export function OfflineNote({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} className="flex items-center gap-1 text-xs font-medium text-slate-700">
      <WifiOff aria-hidden="true" className="h-3.5 w-3.5 shrink-0" />
      {children}
    </p>
  );
}
