import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { copyRefreshState } from './offline-snapshot';
import { REFRESH_NOTE } from './offline-messages';
import { useOnline } from '@/hooks/use-online';

/**
 * The quiet line under a member page's heading (/dashboard, /my-schedule, /mybookings) when it
 * painted from the member's saved copy (decision 0062): "Updating…" while its reads come back,
 * "Updated" once they have replaced the copy. The line keeps its height when empty, so nothing
 * below it moves when the words come or go. A polite live region without the status role: the
 * offline banner is the page's status.
 */
export function RefreshNote({ className = '' }: { className?: string }) {
  const client = useQueryClient();
  // The cache tells of observers added while other screens render: React is told afterwards.
  const subscribe = useCallback((onChange: () => void) => client.getQueryCache().subscribe(() => queueMicrotask(onChange)), [client]);
  const state = useSyncExternalStore(
    subscribe,
    () => copyRefreshState(client),
    () => null,
  );
  // Offline nothing is being updated: the offline banner says what the page shows.
  const online = useOnline();
  return (
    // Blank in the page's copy (page-copy.ts): "Updated" belongs to the moment it was saved.
    <p aria-live="polite" data-copy-blank className={`h-5 text-sm leading-5 text-slate-500 ${className}`}>
      {state && online ? REFRESH_NOTE[state] : ''}
    </p>
  );
}
