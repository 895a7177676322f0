import { lazy, Suspense, useSyncExternalStore } from 'react';
import { subscribeToToastRequests, toastsRequested } from '@/lib/toast';

const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })));

/** The Toaster, mounted once the first toast is asked for (see lib/toast.ts); nothing before. */
export function ToasterHost() {
  const requested = useSyncExternalStore(subscribeToToastRequests, toastsRequested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
