/**
 * Registers the service worker (vite.config.ts: Workbox's generateSW) from the member's bundle:
 * the CSP allows no inline script, and a visitor's page never starts one (decision 0019).
 */
const SERVICE_WORKER_URL = '/sw.js';
/** A phone left open on the app still learns of a new deployment within the hour. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * `onUpdated` runs when a new deployment's worker has taken over this page (it activates at once:
 * skipWaiting and clientsClaim). The page's code is then the previous deployment's, whose lazy
 * chunks the new worker no longer holds: the caller reloads at a moment that loses nothing.
 * The first worker taking control of a page that had none is not an update.
 */
export function registerServiceWorker(onUpdated: () => void): () => void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return () => undefined;
  const container = navigator.serviceWorker;
  let controlled = container.controller !== null;
  const onControllerChange = () => {
    if (controlled) onUpdated();
    controlled = true;
  };
  container.addEventListener('controllerchange', onControllerChange);
  let timer: ReturnType<typeof setInterval> | undefined;
  container
    .register(SERVICE_WORKER_URL, { scope: '/' })
    .then((registration) => {
      timer = setInterval(() => {
        if (document.visibilityState === 'visible' && navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    })
    // No worker (a private window, storage refused): the app works as a website.
    .catch(() => undefined);
  return () => {
    container.removeEventListener('controllerchange', onControllerChange);
    if (timer !== undefined) clearInterval(timer);
  };
}
