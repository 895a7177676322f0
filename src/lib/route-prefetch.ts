/**
 * Prefetch on intent: a nav link starts loading its screen's code when a pointer rests
 * on it, a finger touches it or the keyboard focuses it, so the press usually finds the screen
 * ready. The app's router says how (app/router.tsx); shared components only call `prefetchProps`.
 */
let prefetcher: ((pathname: string) => void) | undefined;

export function setRoutePrefetcher(prefetch: (pathname: string) => void): void {
  prefetcher = prefetch;
}

export function prefetchRoute(pathname: string): void {
  prefetcher?.(pathname);
}

/** Props for a link to `to` that prefetch its screen on hover, touch or focus. */
export function prefetchProps(to: string) {
  const prefetch = () => prefetchRoute(to);
  return { onPointerEnter: prefetch, onTouchStart: prefetch, onFocus: prefetch };
}
