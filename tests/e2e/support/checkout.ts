/** The app's payment return page, where the local test checkout sends the browser back. */
export const isPaymentReturn =
  (origin: string) =>
  (url: URL): boolean =>
    url.href.startsWith(origin) && url.pathname === '/payment/return';
