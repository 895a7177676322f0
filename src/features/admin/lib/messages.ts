/** The admin portal's product copy (spec sections 2 and 8), kept verbatim in one place. */
export const ADMIN_MESSAGES = {
  invalidCredentials: 'Invalid email or password.',
  loginFailed: 'Login failed. Please try again.',
  noMemberRecord: 'No member record found. Please contact support.',
  notAdmin: 'Access denied. Admin privileges required.',
  welcome: 'Welcome, Admin!',
  resetSent: 'Password reset email sent! Check your inbox.',
  resetFailed: 'Failed to send reset email',
  signInAgain: 'Please sign in again',
  accessDenied: 'Access denied',
  loggedOut: 'Logged out successfully',
  logoutFailed: 'Logout failed',

  classCreated: 'Class created successfully!',
  classesCreated: (n: number) => `${n} classes created successfully!`,
  classUpdated: 'Class updated successfully!',
  classSaveFailed: 'Failed to save class',
  // The database says this too (hint class_in_past) when an edit moves a class back.
  classInPast: 'The class must start in the future',
  classDeleted: 'Class deleted successfully',
  classDeleteFailed: 'Failed to delete class',
  classesLoadFailed: 'Failed to load classes',

  bookingsLoadFailed: 'Failed to load bookings',
  bookingCancelled: 'Booking cancelled successfully',
  bookingCancelFailed: 'Failed to cancel booking',

  membersLoadFailed: 'Failed to load members',
  memberDeleted: 'Member deleted successfully',
  memberDeleteFailed: 'Failed to delete member',

  analyticsLoadFailed: 'Failed to load analytics',

  // CSV exports (the spec has no copy for them).
  exported: (n: number, noun: string) => `Exported ${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`,
  exportFailed: 'Export failed. Please try again.',
  waitlistsLoadFailed: 'Failed to load waitlists',
  rosterLoadFailed: 'Failed to load the roster',
  attendanceFailed: 'Failed to save attendance',
  reportsLoadFailed: 'Failed to load the reports',
  checkInLoadFailed: "Failed to load today's classes",
  doorCodeFailed: "Failed to load today's door code",
  memberAttendanceFailed: "Failed to load the member's bookings",
  attendanceTooEarly: 'Attendance can be marked from 1 hour before the class starts',
  waitlistRemoved: 'Removed from the waitlist',
  waitlistRemoveFailed: 'Failed to remove from the waitlist',

  classesGenerated: 'Classes generated successfully!',
  generateFailed: 'Failed to generate classes',

  // Studio closures (the spec has no copy for them).
  closureAdded: (classes: number, members: number) =>
    `Closure added: ${classes} ${classes === 1 ? 'class' : 'classes'} cancelled, ${members} ${members === 1 ? 'member' : 'members'} notified`,
  closureConfirm: (day: string) => `Close the studio on ${day}? Classes on that day will be cancelled and their booked members emailed.`,
  closureRemoved: 'Closure removed',
  closureRemoveFailed: 'Failed to remove the closure',
  closuresLoadFailed: 'Failed to load closures',
  activityLoadFailed: 'Failed to load the activity',
  healthLoadFailed: 'Failed to load the system health',
} as const;

/** The closures panel's heading id, so Classes Management can link down to it. */
export const CLOSURES_ANCHOR = 'studio-closures';
