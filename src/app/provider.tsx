import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToasterHost } from '@/components/ui/toaster-host';
import { AuthProvider } from '@/lib/auth/auth-provider';
import { createQueryClient } from '@/lib/react-query';

/** App-wide providers. Tests pass their own `queryClient` so each render starts with an empty cache. */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <AuthProvider>
        {children}
        <ToasterHost />
      </AuthProvider>
    </QueryClientProvider>
  );
}
