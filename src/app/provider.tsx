import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { ToasterHost } from '@/components/ui/toaster-host';
import { AuthProvider } from '@/lib/auth/auth-provider';
import { getAppQueryClient, subscribeToAppQueryClient } from '@/lib/app-query-client';

/**
 * TanStack Query's QueryClientProvider, except that the client may not exist yet: it arrives with
 * the first screen that needs it (lib/app-query-client.ts). Swapping in QueryClientProvider then
 * would remount the whole app; a context whose value changes does not.
 */
function OptionalQueryClientProvider({ client, children }: { client: QueryClient | undefined; children: ReactNode }) {
  useEffect(() => {
    if (!client) return;
    client.mount(); // what QueryClientProvider does: refetch on focus and reconnect
    return () => client.unmount();
  }, [client]);
  return <QueryClientContext.Provider value={client}>{children}</QueryClientContext.Provider>;
}

/** App-wide providers. Tests pass their own `queryClient` so each render starts with an empty cache. */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const appClient = useSyncExternalStore(subscribeToAppQueryClient, getAppQueryClient, getAppQueryClient);
  return (
    <OptionalQueryClientProvider client={queryClient ?? appClient}>
      <AuthProvider>
        {children}
        <ToasterHost />
      </AuthProvider>
    </OptionalQueryClientProvider>
  );
}
