import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { STUDIO_ADDRESS_LINES } from '../../config/studio';
import { bookingEvent, icsFileName } from './booking-event';
import { buildCalendar, type CalendarEvent } from './build-calendar';
import { escapeText, foldLine } from './ics-text';

/** Parses with ical.js (a strict RFC 5545 parser) and places TZID times with the file's own VTIMEZONE. */
function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const zone = calendar.getFirstSubcomponent('vtimezone');
  if (!zone) throw new Error('no VTIMEZONE');
  // Use the file's definition, not any zone ical.js may already know.
  ICAL.TimezoneService.reset();
  ICAL.TimezoneService.register(zone);
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}

const octets = (s: string) => new TextEncoder().encode(s).length;

const summer: CalendarEvent = {
  uid: 'booking-1@finerfitness.example',
  start: new Date('2025-07-07T05:00:00Z'), // 06:00 BST
  durationMinutes: 45,
  summary: 'Breakfast Club',
  location: STUDIO_ADDRESS_LINES.join(', '),
  description: 'Bring water; a towel, and \\ good mood.\nSee you there!',
};
const winter: CalendarEvent = { ...summer, uid: 'booking-2@finerfitness.example', start: new Date('2025-12-01T06:00:00Z') }; // 06:00 GMT

describe('buildCalendar', () => {
  it('produces a calendar a parser reads back exactly, in London time through the DST change', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const ics = buildCalendar([summer, winter], { name: 'My classes at Finer Fitness', now });
    const { calendar, events } = parse(ics);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('My classes at Finer Fitness');
    expect(events).toHaveLength(2);

    const [e1, e2] = events;
    expect(e1!.uid).toBe('booking-1@finerfitness.example');
    expect(e1!.summary).toBe('Breakfast Club');
    expect(e1!.location).toBe('Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom');
    expect(e1!.description).toBe('Bring water; a towel, and \\ good mood.\nSee you there!');
    expect(e1!.startDate.zone?.tzid).toBe('Europe/London');
    expect(e1!.startDate.toString()).toBe('2025-07-07T06:00:00');
    expect(e1!.startDate.toJSDate().toISOString()).toBe('2025-07-07T05:00:00.000Z');
    expect(e1!.endDate.toJSDate().toISOString()).toBe('2025-07-07T05:45:00.000Z');
    expect(e2!.startDate.toString()).toBe('2025-12-01T06:00:00');
    expect(e2!.startDate.toJSDate().toISOString()).toBe('2025-12-01T06:00:00.000Z');
    expect(e1!.component.getFirstPropertyValue('dtstamp')?.toString()).toBe('2025-06-01T12:00:00Z');
  });

  it('uses CRLF line endings and never a line over 75 octets, even with long multi-byte text', () => {
    const long: CalendarEvent = { ...summer, summary: `Zumba ${'é'.repeat(60)} 🧘 ${'x'.repeat(80)}`, description: 'ü'.repeat(200) };
    const ics = buildCalendar([long]);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
    const [event] = parse(ics).events;
    expect(event!.summary).toBe(long.summary);
    expect(event!.description).toBe(long.description);
  });

  it('makes an empty but valid calendar when there are no bookings', () => {
    const { events, calendar } = parse(buildCalendar([], { refreshInterval: 'PT1H' }));
    expect(events).toEqual([]);
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT1H');
  });
});

describe('text rules', () => {
  it('escapes backslash, semicolon, comma and newlines', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds at 75 octets with a leading space and leaves short lines alone', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const folded = foldLine(`DESCRIPTION:${'a'.repeat(100)}`);
    const [first, second] = folded.split('\r\n');
    expect(octets(first!)).toBe(75);
    expect(second!.startsWith(' ')).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'a'.repeat(100)}`);
  });
});

describe('bookingEvent', () => {
  it('describes a booking at the studio address with the trainer and the My Bookings link', () => {
    const event = bookingEvent(
      { bookingId: 'b-1', className: 'Kids Club', trainer: 'Coach Alex', startTime: '2025-10-06T15:45:00Z', durationMinutes: 45 },
      'https://studio.example/',
    );
    expect(event).toEqual({
      uid: 'booking-b-1@finerfitness.example',
      start: new Date('2025-10-06T15:45:00Z'),
      durationMinutes: 45,
      summary: 'Kids Club (Finer Fitness)',
      location: 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom',
      description: 'With Coach Alex at Finer Fitness.\n\nManage or cancel your booking: https://studio.example/mybookings',
      url: 'https://studio.example/mybookings',
    });
    const [parsed] = parse(buildCalendar([event])).events;
    expect(parsed!.startDate.toString()).toBe('2025-10-06T16:45:00');
  });

  it('puts an outdoor class at its meeting point, with the directions in the description', () => {
    const event = bookingEvent({
      bookingId: 'b-2',
      className: 'Outdoor Bootcamp',
      trainer: 'Coach Alex',
      startTime: '2025-10-06T08:00:00Z',
      durationMinutes: 45,
      location: 'Victoria Park Crown Gate, Old Ford Road, London E3 5DS',
      directions: 'Meet at the gate by the cafe.',
    });
    expect(event.location).toBe('Victoria Park Crown Gate, Old Ford Road, London E3 5DS');
    expect(event.description).toBe('With Coach Alex at Finer Fitness.\n\nDirections: Meet at the gate by the cafe.');
    const [parsed] = parse(buildCalendar([event])).events;
    expect(parsed!.location).toBe('Victoria Park Crown Gate, Old Ford Road, London E3 5DS');
  });

  it('names the download after the class and its London date', () => {
    expect(icsFileName('Breakfast Club!', '2025-10-05T23:30:00Z')).toBe('breakfast-club-2025-10-06.ics');
  });
});
