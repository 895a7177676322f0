import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { ClassRow } from '@/lib/supabase';
import { subscribeToClassUpdates } from '../api/subscribe-class-updates';

export const LOAD_FAILED = 'Failed to load classes';

export type ClassListState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; classes: ClassRow[] };

/**
 * Loads a list of classes once, then keeps each row current from realtime UPDATEs while the page
 * is open. `updateClass` changes one row locally (e.g. spots after a booking).
 * `load` must be stable (a module-level function).
 */
export function useClassList(load: () => Promise<ClassRow[]>) {
  const [state, setState] = useState<ClassListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    load().then(
      (classes) => active && setState({ status: 'ready', classes }),
      () => {
        if (!active) return;
        setState({ status: 'error' });
        toast.error(LOAD_FAILED);
      },
    );
    return () => {
      active = false;
    };
  }, [load, attempt]);

  const updateClass = useCallback((id: string, change: (row: ClassRow) => ClassRow) => {
    setState((s) => (s.status === 'ready' ? { status: 'ready', classes: s.classes.map((c) => (c.id === id ? change(c) : c)) } : s));
  }, []);

  useEffect(() => subscribeToClassUpdates((row) => updateClass(row.id, (current) => ({ ...current, ...row }))), [updateClass]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((a) => a + 1);
  }, []);

  return { state, updateClass, reload };
}
