import tailwindConfig from '../../../tailwind.config';
import { STUDIO, STUDIO_ADDRESS_LINES } from '../../../src/config/studio';

/**
 * What every email is branded with: the studio's identity (src/config/studio.ts) and the site's
 * palette (tailwind.config.ts), read from where the site reads them so the two never drift.
 */
const { brand, ink } = tailwindConfig.theme.extend.colors;

export const EMAIL_BRAND = {
  name: STUDIO.name,
  tagline: STUDIO.tagline,
  addressLines: STUDIO_ADDRESS_LINES,
  email: STUDIO.email,
  colors: {
    /** Buttons and the header band: white text on it is 5.2:1 (WCAG AA). */
    accent: brand[600],
    accentDark: brand[800],
    tint: brand[50],
    tintBorder: brand[200],
    text: ink.DEFAULT,
    muted: ink.soft,
    page: '#f8fafc',
  },
  fontFamily: tailwindConfig.theme.extend.fontFamily.sans.join(', '),
} as const;
