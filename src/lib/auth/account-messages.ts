/** Said when the signed-in account no longer exists (an admin removed the member;). */
export const ACCOUNT_REMOVED_MESSAGE =
  'Your account has been removed, so you have been signed out. Contact the studio if this is a mistake.';
