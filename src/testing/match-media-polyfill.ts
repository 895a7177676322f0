/**
 * jsdom has no window.matchMedia; react-hot-toast's Toaster calls it (prefers-reduced-motion)
 * as soon as a toast shows. Answers "no match" for every query, like a default desktop browser.
 */
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
