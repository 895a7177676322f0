import { WifiOff } from 'lucide-react';
import { NEEDS_CONNECTION, offlineMessage } from './offline-messages';

/**
 * Shown on every member page while the browser has no connection: what the page shows
 * is the last copy read, from when, and that changing a booking has to wait. A status region, so a
 * screen reader announces it when the connection drops.
 */
export function OfflineBanner({ offline, readAt }: { offline: boolean; readAt: number | null }) {
  return (
    <div role="status" aria-live="polite">
      {offline && (
        <div className="border-b border-amber-300 bg-amber-50 text-amber-950">
          <p className="mx-auto flex max-w-6xl items-start gap-2 px-4 py-3 text-sm sm:px-6">
            <WifiOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <span>
              <strong className="font-semibold">{offlineMessage(readAt)}</strong> {NEEDS_CONNECTION}
            </span>
          </p>
        </div>
      )}
    </div>
  );
}
