/** Browser storage keys of the spec (section 3). */
export const STORAGE_KEYS = { email: 'ffEmail', adminAuthenticated: 'adminAuthenticated' } as const;

export function rememberEmail(email: string): void {
  localStorage.setItem(STORAGE_KEYS.email, email);
}

/** Logout clears the stored email and the admin flag (spec section 4). */
export function clearStoredSession(): void {
  localStorage.removeItem(STORAGE_KEYS.email);
  localStorage.removeItem(STORAGE_KEYS.adminAuthenticated);
}
