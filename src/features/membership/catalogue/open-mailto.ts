/** Hands a mailto link to the browser, which opens the visitor's mail app (kept apart so tests can replace it). */
export function openMailto(url: string): void {
  window.location.assign(url);
}
