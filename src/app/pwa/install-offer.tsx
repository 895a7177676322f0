import { useId } from 'react';
import { Share, SquarePlus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { STUDIO } from '@/config/studio';
import type { InstallRoute } from './install-offer-logic';

type Props = {
  route: Exclude<InstallRoute, 'none'>;
  /** The browser's own install prompt (route 'prompt'). */
  onInstall: () => void;
  onDismiss: () => void;
};

/**
 * The one-time offer to put the app on the home screen, after the member's first
 * booking: the browser's install prompt where there is one, the steps of Add to Home Screen on
 * iOS. A non-modal dialog at the foot of the screen: it takes no focus from the page, Escape or
 * "Not now" closes it for good.
 */
export function InstallOffer({ route, onInstall, onDismiss }: Props) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDismiss();
      }}
      className="fixed inset-x-0 bottom-0 z-50 p-3 sm:bottom-4 sm:left-auto sm:right-4 sm:max-w-sm sm:p-0"
    >
      <div className="relative rounded-2xl border border-slate-200 bg-white p-5 pr-12 text-slate-900 shadow-2xl">
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Close"
          className="absolute right-2 top-2 inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100"
        >
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
        <div className="flex items-start gap-3">
          <img src="/icons/icon-192.png" alt="" width={40} height={40} className="h-10 w-10 shrink-0 rounded-lg" />
          <div>
            <h2 id={titleId} className="text-base font-bold">
              Add {STUDIO.name} to your home screen
            </h2>
            <p id={descriptionId} className="mt-1 text-sm text-slate-700">
              Open your bookings in one tap, and see them and the timetable even without signal.
            </p>
          </div>
        </div>
        {route === 'ios' ? (
          <>
            <ol className="mt-4 space-y-2 text-sm text-slate-800">
              <li className="flex items-center gap-2">
                <span className="font-semibold">1.</span> Tap <Share aria-hidden="true" className="h-4 w-4 text-blue-600" />{' '}
                <strong>Share</strong> in the browser&apos;s toolbar.
              </li>
              <li className="flex items-center gap-2">
                <span className="font-semibold">2.</span> Choose <SquarePlus aria-hidden="true" className="h-4 w-4" />{' '}
                <strong>Add to Home Screen</strong>.
              </li>
            </ol>
            <div className="mt-4 flex justify-end">
              <Button variant="outline" size="sm" onClick={onDismiss}>
                Got it
              </Button>
            </div>
          </>
        ) : (
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={onDismiss}>
              Not now
            </Button>
            <Button size="sm" onClick={onInstall}>
              Install app
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
