import type { PushPreferences } from '../api/push-preferences';

/** The words of the notifications card on Edit Profile (the spec has none of its own). */
export const PUSH_MESSAGES = {
  heading: 'Notifications on your phone',
  intro:
    'The app can tell you at once when a waitlist spot opens for you, a class you booked changes or the studio closes. Choose which in Notification preferences.',
  unsupported:
    'This browser cannot show notifications from the studio. On an iPhone, add the app to your Home Screen first and open it from there.',
  blocked: 'Notifications are blocked for this site. Allow them in your browser’s site settings, then come back here.',
  privateWindow: 'Notifications can’t be turned on in a private window. Open the site in a normal browser window, then turn them on there.',
  deviceOn: 'Notifications are on for this device.',
  turnOn: 'Turn on notifications on this device',
  turnOff: 'Turn off on this device',
  turnedOn: 'Notifications are on for this device',
  turnedOff: 'Notifications are off for this device',
  turnOnFailed: 'Could not turn notifications on. Please try again.',
  turnOffFailed: 'Could not turn notifications off. Please try again.',
  reminder: 'Reminder before an early class',
  reminderHint: 'For classes starting before 9:00 AM, such as the 6:00 AM Breakfast Club.',
  quietHours: 'Quiet hours',
  quietHoursHint: 'Nothing is pushed between these times (London time): it waits until they end, unless the class has started by then.',
  quietFrom: 'From',
  quietUntil: 'Until',
  quietSame: 'Quiet hours need a start and a different end',
  saved: 'Notification settings saved',
  saveFailed: 'Could not save your notification settings. Please try again.',
  loadFailed: 'Could not load your notification settings. Please refresh the page.',
} as const;

/** The reminder leads offered (push_preferences_reminder_minutes_check); none at all is the grid's push reminders cell. */
export const REMINDER_OPTIONS: readonly { minutes: PushPreferences['reminderMinutes']; label: string }[] = [
  { minutes: 30, label: '30 minutes before' },
  { minutes: 60, label: '1 hour before' },
  { minutes: 120, label: '2 hours before' },
  { minutes: 720, label: '12 hours before (the evening before)' },
];

/** Quiet hours when the member turns them on: the night. */
export const QUIET_HOURS_DEFAULT = { quietFrom: '22:00', quietUntil: '07:00' } as const;

/** Whole hours of the day, as the studio writes times ('10:00 PM'). */
export const QUIET_HOURS_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({
  value: `${String(hour).padStart(2, '0')}:00`,
  label: `${hour % 12 === 0 ? 12 : hour % 12}:00 ${hour < 12 ? 'AM' : 'PM'}`,
}));
