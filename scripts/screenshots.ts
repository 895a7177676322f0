/**
 * Full-page screenshots of a running site at phone and desktop widths, with Debian's chromium,
 * plus the JavaScript each page downloads (gzipped sizes measured from the response bodies).
 *
 *   npm run build && npx vite preview --port 4310 &
 *   npx tsx scripts/screenshots.ts [--base http://127.0.0.1:4310] [--out test-results/screenshots] [/ /membership ...]
 */
import { mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:4310' },
    out: { type: 'string', default: 'test-results/screenshots' },
    widths: { type: 'string', default: '375,1280' },
  },
});

const routes = positionals.length ? positionals : ['/', '/membership', '/this-page-does-not-exist'];
const widths = values.widths.split(',').map(Number);
/** Height of one slice of a tall phone screenshot. */
const SLICE = 1400;
const slug = (route: string) => (route === '/' ? 'home' : route.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-'));

mkdirSync(values.out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

try {
  for (const width of widths) {
    for (const route of routes) {
      const context = await browser.newContext({ viewport: { width, height: width < 640 ? 812 : 900 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const scripts: Array<{ url: string; gzip: number }> = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        void response.body().then(
          (body) => scripts.push({ url: new URL(response.url()).pathname, gzip: gzipSync(body).length }),
          () => undefined,
        );
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(`${values.base}${route}`, { waitUntil: 'networkidle' });
      // Scroll through so lazy images load, then back to the top for the shot.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 60));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForLoadState('networkidle');
      const file = `${values.out}/${slug(route)}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      // Tall phone pages also in slices, so each can be looked at at full size.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (width < 640 && height > SLICE) {
        for (let y = 0, n = 1; y < height; y += SLICE, n += 1) {
          await page.screenshot({
            path: file.replace('.png', `-part${n}.png`),
            fullPage: true,
            clip: { x: 0, y, width, height: Math.min(SLICE, height - y) },
          });
        }
      }
      const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
      console.log(
        `${file}  JS ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped${errors.length ? `  ERRORS: ${errors.join(' | ')}` : ''}`,
      );
      if (width === widths[0]) for (const s of scripts) console.log(`    ${(s.gzip / 1024).toFixed(1).padStart(6)} KB  ${s.url}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
