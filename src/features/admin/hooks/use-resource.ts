import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';

type ResourceState<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error' };

/**
 * Loads one admin resource on mount, toasting `failMessage` when the load fails. `load` must be
 * stable (a module-level fetcher). `reload` fetches again while the current rows stay on screen;
 * `setData` lets a screen drop a deleted row without a second round trip.
 */
export function useResource<T>(load: () => Promise<T>, failMessage: string) {
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let active = true;
    load().then(
      (data) => active && setState({ status: 'ready', data }),
      () => {
        if (!active) return;
        setState({ status: 'error' });
        toast.error(failMessage, { id: failMessage });
      },
    );
    return () => {
      active = false;
    };
  }, [load, failMessage, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);

  const setData = useCallback((update: (data: T) => T) => {
    setState((prev) => (prev.status === 'ready' ? { status: 'ready', data: update(prev.data) } : prev));
  }, []);

  return { state, reload, setData };
}
