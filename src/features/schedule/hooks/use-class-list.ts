import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { ClassRow } from '@/lib/supabase';
import { startOfStudioDay } from '@/lib/studio-time';
import { getClassWindow } from '../api/get-class-window';
import { subscribeToClassUpdates } from '../api/subscribe-class-updates';

export const LOAD_FAILED = 'Failed to load classes';

export type ClassListState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; classes: ClassRow[]; until: Date; hasMore: boolean; loadingMore: boolean };

/** Where a list starts: upcoming classes from now, or the whole of today (started ones included). */
export type ClassListStart = 'now' | 'today';

/**
 * Loads the first week of classes, then the next week on each `showMore`; keeps every loaded row
 * current from realtime UPDATEs while the page is open. `updateClass` changes one row locally
 * (e.g. spots after a booking). `onChange` hears each realtime row too (e.g. to re-read a waitlist
 * place when that class's spots move).
 */
export function useClassList(start: ClassListStart, onChange?: (row: ClassRow) => void) {
  const [state, setState] = useState<ClassListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const moreRequested = useRef(false);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    let active = true;
    const now = new Date();
    getClassWindow(start === 'today' ? startOfStudioDay(now) : now).then(
      (w) => active && setState({ status: 'ready', classes: w.classes, until: w.until, hasMore: w.hasMore, loadingMore: false }),
      () => {
        if (!active) return;
        setState({ status: 'error' });
        toast.error(LOAD_FAILED);
      },
    );
    return () => {
      active = false;
    };
  }, [start, attempt]);

  const showMore = useCallback(() => {
    if (state.status !== 'ready' || !state.hasMore || moreRequested.current) return;
    moreRequested.current = true;
    setState((s) => (s.status === 'ready' ? { ...s, loadingMore: true } : s));
    getClassWindow(state.until)
      .then(
        (w) =>
          setState((s) => {
            if (s.status !== 'ready') return s;
            const seen = new Set(s.classes.map((c) => c.id));
            return { status: 'ready', classes: [...s.classes, ...w.classes.filter((c) => !seen.has(c.id))], until: w.until, hasMore: w.hasMore, loadingMore: false };
          }),
        () => {
          setState((s) => (s.status === 'ready' ? { ...s, loadingMore: false } : s));
          toast.error(LOAD_FAILED);
        },
      )
      .finally(() => {
        moreRequested.current = false;
      });
  }, [state]);

  const updateClass = useCallback((id: string, change: (row: ClassRow) => ClassRow) => {
    setState((s) => (s.status === 'ready' ? { ...s, classes: s.classes.map((c) => (c.id === id ? change(c) : c)) } : s));
  }, []);

  useEffect(
    () =>
      subscribeToClassUpdates((row) => {
        updateClass(row.id, (current) => ({ ...current, ...row }));
        onChangeRef.current?.(row);
      }),
    [updateClass],
  );

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((a) => a + 1);
  }, []);

  return { state, updateClass, reload, showMore };
}
