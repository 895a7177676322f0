import { STUDIO } from '../../../src/config/studio';
import { expect, test } from '../fixtures';

// The timetable other sites frame (decision 0089), served as Netlify serves it: the page reads the
// public timetable under the site's CSP (a violation is a console error, which fails the test), its
// framing rule is the studio's list, and Book opens the class on the studio's site in a new tab.

test('/embed/schedule lists the coming classes, filtered by its URL, each Book opening the studio in a new tab', async ({
  page,
  baseURL,
}) => {
  const res = await page.goto('/embed/schedule');
  const csp = res!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(STUDIO.embedOrigins.length ? /frame-ancestors https?:/ : /frame-ancestors 'none'/);
  expect(res!.headers()['x-frame-options']).toBeUndefined();
  await expect(page.getByRole('heading', { level: 1, name: `${STUDIO.name} timetable` })).toBeVisible();
  const book = page.getByRole('link', { name: /^(Book|Join waitlist) .+ \(opens .+ in a new tab\)$/ }).first();
  await expect(book).toBeVisible();
  await expect(book).toHaveAttribute('target', '_blank');
  expect(new URL((await book.getAttribute('href'))!).origin).toBe(new URL(baseURL!).origin);

  // A coach nobody is: the filter reaches the database and nothing matches.
  await page.goto('/embed/schedule?coach=Coach%20Nobody');
  await expect(page.getByText('No classes match in the next two weeks.')).toBeVisible();

  // Every other page still refuses every frame.
  const schedule = await page.request.get('/schedule');
  expect(schedule.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(schedule.headers()['x-frame-options']).toBe('DENY');
});
