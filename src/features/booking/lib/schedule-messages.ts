/**
 * The timetable's own words (spec section 8), apart from the member's booking copy
 * (booking-messages.ts) so that a visitor's /schedule loads this line and not the rest.
 */
export const CLASSES_LOAD_FAILED = 'Failed to load classes';
