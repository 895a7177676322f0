/** Sends the browser to an external checkout page (its own module so tests can replace it). */
export function redirectToCheckout(url: string): void {
  window.location.assign(url);
}
