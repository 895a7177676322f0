/**
 * Studio identity: the one place for the studio's name, hall, address and contact details.
 * The spec leaves these as placeholders; the defaults here are clearly fictional (Ofcom's
 * drama-reserved phone range, an .example email domain) until the studio supplies real ones.
 */
export const STUDIO = {
  name: 'Finer Fitness',
  tagline: 'Mind and body transformation starts here',
  hall: 'Example Community Hall',
  street: '1 Example Street',
  city: 'London',
  postcode: 'E8 0XX',
  country: 'United Kingdom',
  /** E.164 without the plus, as chat deep links want it. */
  phoneE164: '447700900123',
  phoneDisplay: '07700 900123',
  email: 'hello@finerfitness.example',
  coachName: 'Alex',
  timeZone: 'Europe/London',
  copyrightYear: 2025,
  social: {
    facebook: 'https://www.facebook.com/finerfitness.example',
    instagram: 'https://www.instagram.com/finerfitness.example',
    tiktok: 'https://www.tiktok.com/@finerfitness.example',
  },
} as const;

export const STUDIO_ADDRESS_LINES = [STUDIO.hall, STUDIO.street, `${STUDIO.city} ${STUDIO.postcode}`, STUDIO.country] as const;

/** Opens a chat with the studio's number in the messaging app. */
export const WHATSAPP_URL = `https://wa.me/${STUDIO.phoneE164}`;
export const MAILTO_URL = `mailto:${STUDIO.email}`;
export const TRAINER_NAME = `Coach ${STUDIO.coachName}`;
