import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { documentsRequiredState } from '@/lib/documents-gate';

/**
 * A booking refused because the member has not signed the current documents (documents_required):
 * nothing went wrong, so no error toast; the member goes to /agreements, which says why, and comes
 * back here once signed (decision 0021).
 */
export function useDocumentsGate() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return useCallback(
    (message: string) => void navigate(paths.agreements.href(here), { state: documentsRequiredState(message) }),
    [navigate, here],
  );
}
