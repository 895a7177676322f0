/**
 * The studio's mark (the header's logo, components/layout/logo.tsx: a white F on the brand
 * orange) as the app icon's SVG. `scripts/generate-icons.ts` draws the PNGs of the web app
 * manifest from it; the PNGs are committed in public/icons.
 */
export const MARK_ORANGE = '#ea580c';

/** The F of the logo, in its 32-unit box. */
const LETTER = 'M10 8h13l-1.6 4H14.5v3.2h6.3l-1.6 4h-4.7V24H10z';

/**
 * `maskable`: the orange fills the square edge to edge and the F sits inside the central circle
 * of 80% that every launcher's mask keeps (the launcher cuts the shape). Otherwise the logo as it
 * is: a rounded square on a transparent ground.
 */
export function markSvg(size: number, maskable = false): string {
  // The F spans x 10–23 and y 8–24 of the 32 box: centred on (16.5, 16).
  const scale = maskable ? 0.8 : 1;
  const letter = `<path d="${LETTER}" fill="#fff" transform="translate(16 16) scale(${scale}) translate(-16.5 -16)"/>`;
  const ground = maskable
    ? `<rect width="32" height="32" fill="${MARK_ORANGE}"/>`
    : `<rect width="32" height="32" rx="8" fill="${MARK_ORANGE}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">${ground}${letter}</svg>`;
}

/** The PNGs the manifest lists (public/icons), and the touch icon iOS uses for Add to Home Screen. */
export const APP_ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-192.png', size: 192, maskable: true },
  { file: 'maskable-512.png', size: 512, maskable: true },
  // iOS rounds the corners itself and shows transparency as black: the full square.
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
] as const;
