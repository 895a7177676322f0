import { useEffect } from 'react';
import { toast } from '@/lib/toast';

/** Toasts `message` once when a read fails (the toast id keeps a re-render from stacking copies). */
export function useErrorToast(failed: boolean, message: string) {
  useEffect(() => {
    if (failed) toast.error(message, { id: message });
  }, [failed, message]);
}
