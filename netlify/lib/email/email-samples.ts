import { STUDIO_ADDRESS_LINES } from '../../../src/config/studio';
import type { OutboxEmail } from './outbox-store';

/**
 * One email of every kind the outbox holds, worded as the database words them
 * (20260101000200_notifications_outbox.sql, 20261122000300_email_delivery.sql), for previews and
 * the 375 px check (scripts/email-previews.ts).
 */
const when = 'Monday 6 October 2031, 6:00 AM';
const where = STUDIO_ADDRESS_LINES.join(', ');
const manage = { label: 'Manage or cancel your booking', path: '/mybookings' };
const base = { reply_to: null, attempts: 1, class_name: 'Breakfast Club', class_trainer: 'Coach Alex', class_when: when, unsubscribe_token: null };
const whenWhere = `When: ${when} (London time)\nWhere: ${where}`;

export const EMAIL_SAMPLES: OutboxEmail[] = [
  {
    ...base,
    id: 'sample-confirmed',
    kind: 'booking_confirmed',
    to_email: 'mia@example.com',
    subject: `Booking confirmed: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia Member,',
      'You are booked on Breakfast Club with Coach Alex.',
      whenWhere,
      'Plans change? Cancel from My Bookings. Cancelling less than 12 hours before the start still counts against your plan.',
    ].join('\n\n'),
    links: [manage],
  },
  {
    ...base,
    id: 'sample-cancelled',
    kind: 'booking_cancelled',
    to_email: 'mia@example.com',
    subject: `Booking cancelled: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia Member,',
      'Your booking for Breakfast Club with Coach Alex has been cancelled.',
      whenWhere,
      'This was a late cancellation (less than 12 hours before the start), so the class still counts against your plan this month.',
    ].join('\n\n'),
    links: [manage, { label: 'Book another class', path: '/my-schedule' }],
  },
  {
    ...base,
    id: 'sample-promoted',
    kind: 'waitlist_promoted',
    to_email: 'mia@example.com',
    subject: `A spot opened: you are booked on Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia Member,',
      'A spot opened on Breakfast Club with Coach Alex and you were next on the waitlist, so you are now booked.',
      whenWhere,
      'Cannot make it any more? Cancel from My Bookings so the next person on the waitlist gets the spot.',
    ].join('\n\n'),
    links: [manage],
  },
  {
    ...base,
    id: 'sample-reminder',
    kind: 'class_reminder',
    to_email: 'mia@example.com',
    subject: `Reminder: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia Member,',
      'See you soon at Breakfast Club with Coach Alex.',
      whenWhere,
      'Cannot make it? Cancel from My Bookings. Cancelling less than 12 hours before the start still counts against your plan.',
    ].join('\n\n'),
    links: [manage],
    unsubscribe_token: '0'.repeat(64),
  },
  {
    ...base,
    id: 'sample-contact',
    kind: 'contact_message',
    to_email: 'hello@finerfitness.example',
    reply_to: 'sam@example.com',
    class_name: null,
    class_trainer: null,
    class_when: null,
    subject: 'Contact Us: Student / Hackney Worker enquiry from Sam Lee',
    body_text: [
      'Hi! I work at the council in Hackney.\nDoes the discount apply to Platinum Premium too, and what proof do you need?',
      `Name: Sam Lee\nEmail: sam@example.com\nPhone: 07700 900456\nAbout: Student / Hackney Worker\nSent: ${when} (London time)`,
      'Reply to this email to answer Sam Lee.',
    ].join('\n\n'),
    links: [{ label: 'Open Messages in the admin portal', path: '/admin/messages' }],
  },
];
