import { STUDIO_ADDRESS_LINES } from '../../../src/config/studio';
import type { OutboxEmail } from './outbox-store';

/**
 * One email of every kind the outbox holds, worded as the database words them
 * (20260101000200_notifications_outbox.sql, 20261122000300_email_delivery.sql,
 * 20261123000400_memberships.sql), for previews and the 375 px check (scripts/email-previews.ts).
 */
const when = 'Monday 6 October 2031, 6:00 AM';
const where = STUDIO_ADDRESS_LINES.join(', ');
const manage = { label: 'Manage or cancel your booking', path: '/mybookings' };
const base = {
  reply_to: null,
  attempts: 1,
  class_name: 'Breakfast Club',
  class_trainer: 'Coach Alex',
  class_when: when,
  unsubscribe_token: null,
};
const whenWhere = `When: ${when} (London time)\nWhere: ${where}`;
const membershipPage = '/membership';
const membership = { ...base, to_email: 'mia@example.com', class_name: null, class_trainer: null, class_when: null };

export const EMAIL_SAMPLES: OutboxEmail[] = [
  {
    ...base,
    id: 'sample-confirmed',
    kind: 'booking_confirmed',
    to_email: 'mia@example.com',
    subject: `Booking confirmed: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia,',
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
      'Hi Mia,',
      'Your booking for Breakfast Club with Coach Alex has been cancelled.',
      whenWhere,
      'This was a late cancellation (less than 12 hours before the start), so the class still counts against your plan this month.',
    ].join('\n\n'),
    links: [manage, { label: 'Book another class', path: '/my-schedule' }],
  },
  {
    ...base,
    id: 'sample-waitlist-cancelled',
    kind: 'waitlist_cancelled',
    to_email: 'mia@example.com',
    subject: `Class cancelled: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia,',
      'The class you were on the waitlist for, Breakfast Club with Coach Alex, has been cancelled: the timetable was changed.',
      whenWhere,
      'You are no longer on its waitlist.',
    ].join('\n\n'),
    links: [{ label: 'Book another class', path: '/my-schedule' }],
  },
  {
    ...base,
    id: 'sample-promoted',
    kind: 'waitlist_promoted',
    to_email: 'mia@example.com',
    subject: `A spot opened: you are booked on Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia,',
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
      'Hi Mia,',
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
  {
    ...membership,
    id: 'sample-renewal-receipt',
    kind: 'renewal_receipt',
    subject: 'Receipt: your Standard membership renewed',
    body_text: [
      'Hi Mia,',
      'Thank you: we charged £100.00 to your saved card for Standard membership, 15 February 2031 to 15 March 2031.',
      'Your next renewal is on 15 March 2031.',
    ].join('\n\n'),
    links: [{ label: 'Billing history and receipts', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-payment-failed',
    kind: 'payment_failed',
    subject: 'Payment failed: please update your card',
    body_text: [
      'Hi Mia,',
      'We could not take the £100.00 renewal of your Standard membership: your card was declined.',
      'You can keep booking classes while we try again on 16 February 2031. Update your card to pay now and keep your membership.',
    ].join('\n\n'),
    links: [{ label: 'Update card', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-membership-ended',
    kind: 'membership_ended',
    subject: 'Your Standard membership has ended',
    body_text: [
      'Hi Mia,',
      'We could not take the £100.00 renewal of your Standard membership after several tries, so it has ended and you are now on pay-as-you-go.',
      'You can choose a plan again at any time from your membership page.',
    ].join('\n\n'),
    links: [{ label: 'Choose a plan', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-trial-ending',
    kind: 'trial_ending',
    subject: 'Your free trial ends tomorrow',
    body_text: [
      'Hi Mia,',
      'Your free trial ends on Tuesday 7 October 2031, 9:00 AM (London time).',
      'Keep training with a Standard or Platinum Premium membership, or pay as you go.',
    ].join('\n\n'),
    links: [{ label: 'See memberships', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-renewal-reminder',
    kind: 'renewal_reminder',
    subject: 'Your Platinum Premium membership renews on 15 March 2031',
    body_text: [
      'Hi Mia,',
      'Your Platinum Premium membership renews on 15 March 2031: we will charge £165.00 to your saved card.',
      'Nothing to do if you are staying. To stop it renewing, cancel renewal on your membership page before then.',
    ].join('\n\n'),
    links: [{ label: 'Manage your membership', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-membership-paused',
    kind: 'membership_paused',
    subject: 'Your Platinum Premium membership is paused from 25 January 2031',
    body_text: [
      'Hi Mia,',
      'Your Platinum Premium membership is paused from 25 January 2031 to 14 February 2031 (21 days).',
      'The hold fee is £12.50 a month (1 × £12.50 = £12.50), charged to your saved card.',
      'Your next renewal moves from 15 February 2031 to 8 March 2031. Your 2 plan bookings inside the pause are cancelled.',
    ].join('\n\n'),
    links: [{ label: 'Manage your membership', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-pause-ending',
    kind: 'pause_ending',
    subject: 'Your membership pause ends on 14 February 2031',
    body_text: [
      'Hi Mia,',
      'Your Platinum Premium membership pause ends on 14 February 2031: you can book plan classes from 15 February 2031.',
      'Your next renewal is on 8 March 2031 (£165.00).',
    ].join('\n\n'),
    links: [
      { label: 'Book a class', path: '/schedule' },
      { label: 'Manage your membership', path: membershipPage },
    ],
  },
  {
    ...membership,
    id: 'sample-credits-expiring',
    kind: 'credits_expiring',
    subject: 'Your credits expire on 24 March 2031',
    body_text: [
      'Hi Mia,',
      'You have 3 personal-training sessions that expire on 24 March 2031.',
      'Book a One-to-One session before then so they are not lost.',
    ].join('\n\n'),
    links: [{ label: 'Your credits', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-payment-receipt',
    kind: 'payment_receipt',
    subject: 'Receipt: Bronze Package (£750)',
    body_text: [
      'Hi Mia,',
      'Thank you: we received £750.00 for Bronze Package (£750) on 10 February 2031.',
      'Keep this email as your receipt. Every payment is also listed under Billing history.',
    ].join('\n\n'),
    links: [{ label: 'Billing history and receipts', path: membershipPage }],
  },
  {
    ...membership,
    id: 'sample-refund-receipt',
    kind: 'refund_receipt',
    subject: 'Refund: Breakfast Club - PAYG Booking',
    body_text: [
      'Hi Mia,',
      'We have refunded £10.00 for Breakfast Club - PAYG Booking.',
      'A card refund usually reaches your account within 5 to 10 working days.',
    ].join('\n\n'),
    links: [{ label: 'Billing history and receipts', path: membershipPage }],
  },
  {
    ...base,
    id: 'sample-class-moved',
    kind: 'class_moved',
    to_email: 'mia@example.com',
    subject: `Class moved: Breakfast Club is now ${when}`,
    body_text: [
      'Hi Mia,',
      'The studio has moved Breakfast Club with Coach Alex. Your place is kept.',
      `Was: Monday 6 October 2031, 7:15 AM\nNow: ${when} (London time)\nWhere: ${where}`,
      'If the new time does not suit you, cancel from My Bookings. Cancelling less than 12 hours before the new start still counts against your plan.',
    ].join('\n\n'),
    links: [manage],
  },
  {
    ...base,
    id: 'sample-class-changed',
    kind: 'class_changed',
    to_email: 'mia@example.com',
    subject: `Class changed: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia,',
      'The studio has changed Breakfast Club:\nCoach: Coach Sam (was Coach Alex)',
      `When: ${when} (London time)\nWhere: ${where}`,
      'Your place is kept. If the change does not suit you, cancel from My Bookings.',
    ].join('\n\n'),
    links: [manage],
  },
  {
    // A long unbroken name (an email once grew to 764 px): it must wrap, not widen the email.
    ...base,
    id: 'sample-guest-invited',
    kind: 'guest_invited',
    to_email: 'gus@example.com',
    subject: `You are booked on Breakfast Club as Mia Member's guest, ${when}`,
    body_text: [
      'Hi Bartholomewmaximilianfitzgeraldwellingtonsmythebrown,',
      'Mia Member has booked you a place on Breakfast Club with Coach Alex as their guest.',
      whenWhere,
      'Please arrive 10 minutes early. Cannot come? Cancel with the link below so someone else can have the place.',
      "Before the class, please read and sign the studio's waiver with the link below: you cannot take part until you have signed it.",
    ].join('\n\n'),
    links: [
      { label: 'Sign the waiver', path: `/guest/waiver?token=${'a'.repeat(48)}` },
      { label: 'Cancel my guest place', path: `/guest/cancel?token=${'a'.repeat(48)}` },
    ],
  },
  {
    ...base,
    id: 'sample-guest-cancelled',
    kind: 'guest_cancelled',
    to_email: 'gus@example.com',
    subject: `Guest place cancelled: Breakfast Club, ${when}`,
    body_text: ['Hi Gus Guest,', `Your guest place on Breakfast Club (${when}, London time) with Mia Member has been cancelled.`].join(
      '\n\n',
    ),
    links: [],
  },
  {
    ...base,
    id: 'sample-host-guest-cancelled',
    kind: 'host_guest_cancelled',
    to_email: 'mia@example.com',
    subject: `Your guest Gus Guest cancelled: Breakfast Club, ${when}`,
    body_text: [
      'Hi Mia,',
      'Gus Guest has cancelled their guest place on Breakfast Club with Coach Alex with the link in their email. Your own booking is unchanged.',
      whenWhere,
      'Your guest pass is back: you can bring someone else.',
    ].join('\n\n'),
    links: [manage],
  },
  {
    ...membership,
    id: 'sample-studio-message',
    kind: 'studio_message',
    subject: 'We miss you at Breakfast Club',
    body_text: ['Hi Mia,', 'Your spot is waiting.', 'Come back this week?'].join('\n\n'),
    links: [{ label: 'Book a class', path: '/my-schedule' }],
  },
  {
    ...membership,
    id: 'sample-win-back',
    kind: 'win_back',
    subject: 'We miss you already',
    body_text: [
      'Hi Mia,',
      'Your Standard membership has ended, and the studio is quieter without you.',
      'You can choose a plan again at any time from your membership page.',
    ].join('\n\n'),
    links: [
      { label: 'See the timetable', path: '/schedule' },
      { label: 'Choose a plan', path: membershipPage },
    ],
    unsubscribe_token: '0'.repeat(64),
  },
  {
    ...membership,
    id: 'sample-document-updated',
    kind: 'document_updated',
    subject: 'We have updated our Liability waiver',
    body_text: [
      'Hi Mia,',
      'We have published a new version of our Liability waiver (version 2).',
      'What changed: Outdoor sessions are now covered.',
      'Please read and accept it before your next booking: the studio will ask you to when you book.',
    ].join('\n\n'),
    links: [{ label: 'Read and accept it', path: '/agreements' }],
  },
  {
    // The studio's review link is printed whole: a long one must wrap, not widen the email.
    ...membership,
    id: 'sample-review-request',
    kind: 'review_request',
    subject: 'How was Breakfast Club?',
    body_text: [
      'Hi Mia,',
      `Thank you for coming to Breakfast Club with Coach Alex on ${when}. How did it go?`,
      'If you have a moment, you can tell other people about the studio with a review: https://search.google.com/local/writereview?placeid=ChIJexampleExampleExample1234',
      'Everyone who comes to 5 classes gets this same message, whatever they thought; a review is entirely up to you, and nothing depends on it. To tell the studio something directly, use Contact Us on the Membership page.',
      'Prefer not to get these? Turn off review requests on Edit Profile.',
    ].join('\n\n'),
    links: [
      { label: 'Contact the studio', path: membershipPage },
      { label: 'Turn review requests off', path: '/edit-profile' },
    ],
  },
  {
    ...base,
    id: 'sample-system-alert',
    kind: 'system_alert',
    to_email: 'hello@finerfitness.example',
    class_name: null,
    class_trainer: null,
    class_when: null,
    subject: 'System alert: The hourly jobs (renewals, reminders, no-shows) have not completed since Monday 3 March 2031, 9:00 AM',
    body_text: [
      'The hourly jobs (renewals, reminders, no-shows) have not completed since Monday 3 March 2031, 9:00 AM (London time). Members may not be charged or reminded until they run again.',
      'Opened Monday 3 March 2031, 11:01 AM (London time). It clears itself once the cause has gone; you will not be emailed again about it until then.',
    ].join('\n\n'),
    links: [{ label: 'Open System health', path: '/admin/system-health' }],
  },
];
