/** The calendar feed card's copy and URL. */
export const CALENDAR_FEED_MESSAGES = {
  heading: 'Calendar feed',
  intro:
    'Subscribe to your bookings from Google Calendar, Apple Calendar or Outlook: new bookings appear and cancelled ones disappear by themselves.',
  privacy:
    'This link is private: anyone who has it can see your classes, so do not share it. If it has been shared, get a new link (the old one stops working) or turn the feed off.',
  create: 'Create calendar link',
  copy: 'Copy link',
  rotate: 'Get a new link',
  revoke: 'Turn off feed',
  confirmRotate: 'Get a new calendar link? Calendars subscribed with the current link stop updating.',
  confirmRevoke: 'Turn off your calendar feed? Calendars subscribed with this link stop updating.',
  copied: 'Calendar link copied',
  copyFailed: 'Could not copy the link. Select it and copy it instead.',
  created: 'Your calendar link is ready',
  rotated: 'New calendar link created. The old link no longer works.',
  revoked: 'Calendar feed turned off',
  failed: 'Could not update your calendar link. Please try again.',
} as const;

/**
 * The subscribe URL: the site's own origin, which serves (in production) or proxies (locally)
 * the Netlify functions, so the link works wherever the member opened the site.
 */
export function calendarFeedUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/.netlify/functions/calendar-feed?token=${encodeURIComponent(token)}`;
}
