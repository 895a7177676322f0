/** Browser storage keys of the spec (section 3), and the installable app's. */
export const STORAGE_KEYS = {
  email: 'ffEmail',
  adminAuthenticated: 'adminAuthenticated',
  /** The install offer's outcome on this browser: offered once, never again (src/app/pwa). */
  installOffer: 'ffInstallOffer',
  /** The signed-in member's bookings and timetable as last read, for reading offline (src/app/pwa). */
  offlineSnapshot: 'ffOfflineSnapshot',
} as const;

/**
 * The member's daily pages as last rendered, in Cache Storage for the service worker
 * (src/app/pwa/page-copy.ts, public/member-copy.js: a test keeps the two names equal).
 */
export const PAGE_COPY_CACHE = 'member-page-copies-v1';

/** Removes every page copy on this browser (Log Out, someone else's or nobody's copy). */
export async function clearPageCopies(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(PAGE_COPY_CACHE);
}

export function rememberEmail(email: string): void {
  localStorage.setItem(STORAGE_KEYS.email, email);
}

/**
 * Logout clears the stored email and the admin flag (spec section 4), and the member's offline
 * copy and page copies: the next person on this browser must not read them.
 */
export function clearStoredSession(): void {
  localStorage.removeItem(STORAGE_KEYS.email);
  localStorage.removeItem(STORAGE_KEYS.adminAuthenticated);
  localStorage.removeItem(STORAGE_KEYS.offlineSnapshot);
  void clearPageCopies().catch(() => undefined);
}

/** What became of the install offer on this browser: shown (and not answered), turned down, or the app installed. */
export type InstallOfferOutcome = 'offered' | 'dismissed' | 'installed';

export function readInstallOffer(): InstallOfferOutcome | null {
  const value = safeGet(STORAGE_KEYS.installOffer);
  return value === 'offered' || value === 'dismissed' || value === 'installed' ? value : null;
}

export function rememberInstallOffer(outcome: InstallOfferOutcome): void {
  safeSet(STORAGE_KEYS.installOffer, outcome);
}

export function readOfflineSnapshot(): string | null {
  return safeGet(STORAGE_KEYS.offlineSnapshot);
}

/** False when the browser refused (storage full or disabled): the copy is a convenience, never required. */
export function saveOfflineSnapshot(text: string): boolean {
  return safeSet(STORAGE_KEYS.offlineSnapshot, text);
}

export function clearOfflineSnapshot(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.offlineSnapshot);
  } catch {
    // storage disabled: nothing was kept
  }
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(key: string, value: string): boolean {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
