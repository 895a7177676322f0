import { paths } from '@/config/paths';
import { clearPageCopies, PAGE_COPY_CACHE } from '@/lib/browser-storage';

/**
 * The member's daily pages as they last rendered with fresh data, kept in the browser's Cache
 * Storage for the service worker (public/member-copy.js, decision 0112): opening the app again
 * paints that HTML at once, before any code has run, and the app takes its place once it has
 * rendered the same page (`revealAppOverCopy`). Only the member's own pages, only once GoTrue has
 * confirmed the session (MemberPwa), never an admin's; gone at Log Out, and never painted for
 * another stored session than the one it was saved for, nor by another deployment's worker.
 */

export const COPIED_PAGES: readonly string[] = [paths.dashboard, paths.mySchedule, paths.myBookings];
/** What the worker puts in place of the empty root, beside the app's own (hidden) root. */
export const PAGE_COPY_ID = 'member-copy';

/**
 * The root's HTML as a copy: without what belongs to a moment rather than to the page (toasts,
 * dialogs, banners fixed over it, the refresh note's words). Null while the page is not one to
 * keep: still loading (a spinner) or showing an error.
 */
export function pageCopyHtml(
  root: HTMLElement,
  isFixed = (element: Element) => getComputedStyle(element).position === 'fixed',
): string | null {
  if (root.hidden || root.querySelector('.animate-spin, [role="alert"]') || !root.querySelector('main h1')) return null;
  // The clone lists its elements in the same order as the page: each is judged on its original.
  const clone = root.cloneNode(true) as HTMLElement;
  const originals = Array.from(root.querySelectorAll('*'));
  Array.from(clone.querySelectorAll('*')).forEach((element, index) => {
    const original = originals[index]!;
    if (original.matches('[role="dialog"]') || isFixed(original)) element.remove();
    else if (original.hasAttribute('data-copy-blank')) element.textContent = '';
  });
  return clone.innerHTML;
}

const available = () => typeof caches !== 'undefined';

/**
 * Keeps the page on show as the copy of `pathname` for `userId`: 'not-kept' when it is not one of
 * the member's daily pages (or nothing can keep it), 'not-ready' while it still loads.
 */
export function savePageCopy(userId: string, pathname: string, root = document.getElementById('root')): 'saved' | 'not-ready' | 'not-kept' {
  // The build's entry: the worker paints only a copy whose code it holds (its own deployment's).
  const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src');
  if (!available() || !root || !entry || !COPIED_PAGES.includes(pathname)) return 'not-kept';
  const html = pageCopyHtml(root);
  if (html === null) return 'not-ready';
  const headers = { 'content-type': 'text/html; charset=utf-8', 'x-user': userId, 'x-entry': entry, 'x-saved-at': String(Date.now()) };
  void caches
    .open(PAGE_COPY_CACHE)
    .then((cache) => cache.put(pathname, new Response(html, { headers })))
    .catch(() => undefined);
  return 'saved';
}

/** A page whose reads have landed may still show a part loading: it is looked at again this often, this many times. */
const RETRY_MS = 1000;
const RETRIES = 5;

/**
 * Saves the page's copy after the member's data has been saved (MemberPwa): at once if the page
 * has settled (`settled`, and nothing on it loading), else again each second for a few seconds,
 * since the part still loading may not be one whose answer is kept (and so saves nothing itself).
 */
export function pageCopyKeeper(userId: string, settled: () => boolean): { save: () => void; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tries = 0;
  const attempt = () => {
    timer = undefined;
    if (settled() && savePageCopy(userId, window.location.pathname) !== 'not-ready') return;
    if (++tries <= RETRIES) timer = setTimeout(attempt, RETRY_MS);
  };
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    save: () => {
      stop();
      tries = 0;
      attempt();
    },
    stop,
  };
}

const text = (scope: ParentNode, selector: string) => scope.querySelector(selector)?.textContent ?? null;
/**
 * When the app's own root can take the copy's place without anything moving: nothing loading, and
 * the same header and heading as the copy (the member's navigation, not the pending header). Or
 * the app has gone to another page (a refused session goes to Sign In).
 */
const appReady = (root: HTMLElement, copy: HTMLElement, path: string, doc: Document) =>
  doc.location.pathname !== path ||
  (root.querySelector('main h1') !== null &&
    root.querySelector('.animate-spin') === null &&
    text(root, 'main h1') === text(copy, 'main h1') &&
    text(root, 'header') === text(copy, 'header'));
/** However the app fares, the copy (inert, and older each second) does not stay longer than this. */
const LONGEST_COPY_MS = 5000;

/**
 * The copy the worker painted stays on screen while the app renders, hidden, beside it; the app
 * takes its place once it shows the page itself (from the same saved data, so nothing moves), or
 * at once if the copy is not the stored session's (someone else's, or nobody's). Returns whether a
 * copy was shown.
 */
export function revealAppOverCopy(root: HTMLElement, storedUserId: string | null, doc: Document = document): boolean {
  const copy = doc.getElementById(PAGE_COPY_ID);
  if (!copy) return false;
  const path = doc.location.pathname;
  const observer = new MutationObserver(() => {
    if (appReady(root, copy, path, doc)) reveal();
  });
  const timer = setTimeout(reveal, LONGEST_COPY_MS);
  function reveal() {
    observer.disconnect();
    clearTimeout(timer);
    copy!.remove();
    root.hidden = false;
  }
  if (!storedUserId || copy.dataset.user !== storedUserId) {
    void clearPageCopies().catch(() => undefined);
    reveal();
    return true;
  }
  if (appReady(root, copy, path, doc)) {
    reveal();
    return true;
  }
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  return true;
}
