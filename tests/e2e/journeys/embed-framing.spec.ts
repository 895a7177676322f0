import { STUDIO } from '../../../src/config/studio';
import { expect, test } from '../fixtures';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium';

// Framed by another site (decision 0089): a site the studio lists (studio.config.json
// embedOrigins; the committed placeholder is https://www.partner-site.example) shows the timetable;
// any other site gets the browser's refusal; the rest of the studio's site refuses every frame.

const ALLOWED = STUDIO.embedOrigins[0]!;

// The partner pages stand in for public sites; Chromium would refuse a public page's frame of this
// machine's server (Local Network Access) before the frame-ancestors rule is even asked.
test.use({
  launchOptions: {
    executablePath: findChromium() ?? undefined,
    args: [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'],
  },
});
const OTHER = 'https://www.not-listed.example';

async function hostPage(page: import('@playwright/test').Page, origin: string, src: string) {
  await page.route(`${origin}/host`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Partner</title><iframe title="Timetable" src="${src}"></iframe>`,
    }),
  );
  await page.goto(`${origin}/host`);
}

test('a listed site frames the timetable; another site and every other page are refused', async ({ page, baseURL }) => {
  await hostPage(page, ALLOWED, `${baseURL}/embed/schedule`);
  const framed = page.frameLocator('iframe[title="Timetable"]');
  await expect(framed.getByRole('heading', { level: 1, name: `${STUDIO.name} timetable` })).toBeVisible();

  await hostPage(page, OTHER, `${baseURL}/embed/schedule`);
  await page.waitForTimeout(1500);
  expect(page.frames().some((f) => f.url().startsWith(`${baseURL}/embed/schedule`) && f !== page.mainFrame())).toBe(false);
  await expect(page.frameLocator('iframe[title="Timetable"]').getByRole('heading', { name: /timetable/ })).toHaveCount(0);

  await hostPage(page, ALLOWED, `${baseURL}/schedule`);
  await page.waitForTimeout(1500);
  await expect(page.frameLocator('iframe[title="Timetable"]').getByRole('heading', { name: 'Class Schedule' })).toHaveCount(0);
});
