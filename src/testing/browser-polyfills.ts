/**
 * jsdom has HTMLDialogElement but not showModal()/close(). This gives tests the state changes
 * (`open` attribute, `close` event) so components built on <dialog> can be rendered; Escape is
 * simulated in tests by firing the `cancel` event the browser would fire.
 */
if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/**
 * jsdom has no matchMedia; react-hot-toast asks it for prefers-reduced-motion when a toast shows.
 * Nothing matches, as in a browser with default settings.
 */
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

/** jsdom does not lay pages out, so it cannot scroll; the router scrolls a new page to its top. */
if (typeof window !== 'undefined') {
  window.scrollTo = () => undefined;
}
