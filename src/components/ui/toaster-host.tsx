import { lazy, Suspense, useSyncExternalStore } from 'react';
import { subscribeToToastRequests, toastsRequested } from '@/lib/toast';
import { toasterProps } from '@/lib/toast-options';

const Toaster = lazy(() => import('react-hot-toast').then((m) => ({ default: m.Toaster })));

/** The Toaster, mounted once the first toast is asked for (see lib/toast.ts); nothing before. */
export function ToasterHost() {
  const requested = useSyncExternalStore(subscribeToToastRequests, toastsRequested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...toasterProps} />
    </Suspense>
  );
}
