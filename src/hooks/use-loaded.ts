import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T };

/**
 * Runs `load(key)` whenever `key` changes (null: wait, e.g. until the member row is known) and
 * keeps the result tagged with the key it was loaded for, so a stale answer is never shown.
 * `update` edits the loaded data in place (e.g. a row marked cancelled); `reload` fetches again.
 * `load` should be a stable (module-level) function.
 */
export function useLoaded<K extends string, T>(key: K | null, load: (key: K) => Promise<T>) {
  const [result, setResult] = useState<{ key: K; attempt: number; value: Loaded<T> } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (key === null) return;
    let active = true;
    load(key).then(
      (data) => active && setResult({ key, attempt, value: { status: 'ready', data } }),
      (error: unknown) => active && setResult({ key, attempt, value: { status: 'error', error } }),
    );
    return () => {
      active = false;
    };
  }, [key, load, attempt]);

  const state: Loaded<T> = result && result.key === key && result.attempt === attempt ? result.value : { status: 'loading' };

  const update = useCallback((change: (data: T) => T) => {
    setResult((r) => (r && r.value.status === 'ready' ? { ...r, value: { status: 'ready', data: change(r.value.data) } } : r));
  }, []);
  const reload = useCallback(() => setAttempt((a) => a + 1), []);

  return { state, update, reload };
}
