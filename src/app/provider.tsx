import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { AuthProvider } from '@/lib/auth/auth-provider';
import { toasterProps } from '@/lib/toast-options';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      {children}
      <Toaster {...toasterProps} />
    </AuthProvider>
  );
}
