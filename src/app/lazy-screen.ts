import { createElement, lazy, type ComponentType, type ReactElement } from 'react';
import { loadAppQueryClient } from '@/lib/app-query-client';

/** A route screen whose code is a separate chunk. `preload()` fetches it ahead of rendering. */
export type LazyScreen = ComponentType & { preload: () => Promise<void> };

/**
 * React.lazy that stops suspending once its module is in: after `preload()` (what hydrating a
 * prerendered page and the build-time render need), the screen renders synchronously, so the
 * first render is the HTML already on screen rather than a fallback.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let Loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const fetchScreen = () =>
    (pending ??= load().then(
      (component) => (Loaded = component),
      (error: unknown) => {
        pending = undefined; // a failed chunk download may be retried on the next visit
        throw error;
      },
    ));
  const Suspending = lazy(() => fetchScreen().then((component) => ({ default: component })));
  function Screen(): ReactElement {
    return createElement(Loaded ?? Suspending);
  }
  Screen.preload = () => fetchScreen().then(() => undefined);
  return Screen;
}

/** The lazy screen an element renders, if it is one. */
export function lazyScreenOf(element: unknown): LazyScreen | undefined {
  const type: unknown = (element as ReactElement | null)?.type;
  return typeof type === 'function' && 'preload' in type && typeof type.preload === 'function' ? (type as LazyScreen) : undefined;
}

/**
 * A screen that reads or writes server data: TanStack Query's client loads with it. The home page
 * has none, so a visitor landing there never downloads the client.
 */
export const dataScreen = (load: () => Promise<ComponentType>) =>
  lazyScreen(() => Promise.all([load(), loadAppQueryClient()]).then(([screen]) => screen));
