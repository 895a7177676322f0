import { useSyncExternalStore } from 'react';

/**
 * Whether the studio's site answered the last time it was asked (src/app/pwa: a member's pages
 * check when they start, and every few seconds while it does not answer): navigator.onLine says
 * only that a network is there, and stays true on a network that carries nothing.
 */
let reachable = true;

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const getOnline = () => navigator.onLine && reachable;
/** The build-time render (and hydration's first pass) assume a connection. */
const getServerOnline = () => true;

/**
 * Records whether the site answered. A change is announced as the window's `online` / `offline`
 * event, which every listener already follows (this hook, TanStack Query's online manager).
 */
export function setReachable(value: boolean): void {
  if (value === reachable) return;
  reachable = value;
  window.dispatchEvent(new Event(value ? 'online' : 'offline'));
}

export function isOnline(): boolean {
  return getOnline();
}

/**
 * Whether the browser has a working connection: offline, Book and Cancel say they need
 * one instead of sending a request that cannot arrive.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, getOnline, getServerOnline);
}
