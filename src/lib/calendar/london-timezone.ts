/**
 * VTIMEZONE for Europe/London (RFC 5545 3.6.5): GMT, and BST from the last Sunday of March 01:00
 * UTC to the last Sunday of October 01:00 UTC (02:00 BST), the rule in force since 1996. Calendar
 * applications use it to place TZID=Europe/London times; most also know the zone by name.
 */
export const LONDON_TZID = 'Europe/London';

export const LONDON_VTIMEZONE: readonly string[] = [
  'BEGIN:VTIMEZONE',
  `TZID:${LONDON_TZID}`,
  `X-LIC-LOCATION:${LONDON_TZID}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];
