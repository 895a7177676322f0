import type { Member } from './supabase';

/** Browser storage keys of the spec (section 3), the installable app's (issue 30) and issue 29's. */
export const STORAGE_KEYS = {
  email: 'ffEmail',
  adminAuthenticated: 'adminAuthenticated',
  /** The install offer's outcome on this browser: offered once, never again (src/app/pwa). */
  installOffer: 'ffInstallOffer',
  /** The signed-in member's bookings and timetable as last read, for reading offline (src/app/pwa). */
  offlineSnapshot: 'ffOfflineSnapshot',
  /** The signed-in user's member row as last read: the next visit paints from it (issue 29). */
  ownMember: 'ffOwnMember',
} as const;

export function rememberEmail(email: string): void {
  localStorage.setItem(STORAGE_KEYS.email, email);
}

/**
 * Logout clears the stored email and the admin flag (spec section 4), and the member's offline
 * copy: the next person on this browser must not read it.
 */
export function clearStoredSession(): void {
  localStorage.removeItem(STORAGE_KEYS.email);
  localStorage.removeItem(STORAGE_KEYS.adminAuthenticated);
  localStorage.removeItem(STORAGE_KEYS.offlineSnapshot);
  localStorage.removeItem(STORAGE_KEYS.ownMember);
}

/** Remembers `member` as `userId`'s own row; null forgets it (the user has no row). */
export function rememberOwnMember(userId: string, member: Member | null): void {
  if (member) safeSet(STORAGE_KEYS.ownMember, JSON.stringify({ userId, member }));
  else safeRemove(STORAGE_KEYS.ownMember);
}

/** `userId`'s member row as this browser last read it; null if it kept none, or another user's. */
export function rememberedOwnMember(userId: string): Member | null {
  try {
    const stored = JSON.parse(safeGet(STORAGE_KEYS.ownMember) ?? 'null') as { userId?: unknown; member?: Partial<Member> } | null;
    const member = stored?.member;
    if (stored?.userId !== userId || typeof member?.id !== 'string' || member.user_id !== userId) return null;
    return member as Member;
  } catch {
    return null;
  }
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
  safeRemove(STORAGE_KEYS.offlineSnapshot);
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeRemove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage disabled: nothing was kept
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
