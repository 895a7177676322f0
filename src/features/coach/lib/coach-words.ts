/** The coach area's words (decision 0027). */
export const COACH_MESSAGES = {
  notCoachTitle: 'This area is for the studio’s coaches',
  notCoachBody: 'Ask the studio to link your account to your trainer record, then sign in again.',
  loadFailed: 'Could not load your classes',
  rosterLoadFailed: 'Could not load this class',
  notYourClass: 'This is not one of your classes',
  rosterClosed: 'This class’s roster closed a day after the class.',
  attendanceFailed: 'Could not save the check-in. Try again.',
  attendanceTooEarly: 'Check-in opens 1 hour before the class starts.',
  noClasses: 'No classes in the next two weeks',
  noClassesBody: 'Classes the studio gives you on the timetable appear here.',
  noBookings: 'Nobody has booked this class yet.',
  healthNote:
    'Health answers are special-category data, shown to you for this class only: ask the member before class, and shred a printout after it.',
} as const;
