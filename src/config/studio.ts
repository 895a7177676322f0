import config from '../../studio.config.json' with { type: 'json' };

/**
 * Studio identity: name, hall, address and contact details, from the ONE file the owner edits,
 * `studio.config.json` at the repository root (README, "The studio's identity"). The site, the
 * Netlify functions and their emails import it from here; the database keeps its own copy of what
 * its emails print (private.studio_settings), written from the same file by the local stack and
 * by `npm run studio:sql` for hosted. The defaults are clearly fictional (Ofcom's drama-reserved
 * phone range, an .example email domain) until the studio supplies real ones.
 */
export const STUDIO = {
  name: config.name,
  tagline: config.tagline,
  hall: config.hall,
  street: config.street,
  city: config.city,
  postcode: config.postcode,
  country: config.country,
  /** E.164 without the plus, as chat deep links want it. */
  phoneE164: config.phoneE164,
  phoneDisplay: config.phoneDisplay,
  email: config.email,
  coachName: config.coachName,
  /** Not the owner's to change: every date rule (SQL and app) is London time. */
  timeZone: 'Europe/London',
  copyrightYear: config.copyrightYear,
  social: config.social,
  /**
   * The sites that may show the timetable (/embed/schedule) in a frame: origins such as
   * 'https://www.stmarys-centre.example' (decision 0089). Empty: no site may frame it.
   */
  embedOrigins: config.embedOrigins as readonly string[],
} as const;

export const STUDIO_ADDRESS_LINES = [STUDIO.hall, STUDIO.street, `${STUDIO.city} ${STUDIO.postcode}`, STUDIO.country] as const;

/** Opens a chat with the studio's number in the messaging app. */
export const WHATSAPP_URL = `https://wa.me/${STUDIO.phoneE164}`;
export const MAILTO_URL = `mailto:${STUDIO.email}`;
export const TRAINER_NAME = `Coach ${STUDIO.coachName}`;
