/**
 * Draws the installable app's icons from the studio's mark (src/app/pwa/studio-mark.ts)
 * as PNGs with Debian's chromium: 192 and 512 px, each also maskable, and the 180 px touch icon.
 *
 *   npx tsx scripts/generate-icons.ts        # writes public/icons/*.png (committed)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tests/e2e/support/chromium';
import { APP_ICONS, markSvg } from '../src/app/pwa/studio-mark';

const OUT = fileURLToPath(new URL('../public/icons/', import.meta.url));

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  for (const icon of APP_ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${markSvg(icon.size, icon.maskable)}</body></html>`,
    );
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(`${OUT}${icon.file}`, png);
    console.log(`public/icons/${icon.file} (${icon.size} px${icon.maskable ? ', full square' : ''}, ${(png.length / 1024).toFixed(1)} KB)`);
    await page.close();
  }
} finally {
  await browser.close();
}
