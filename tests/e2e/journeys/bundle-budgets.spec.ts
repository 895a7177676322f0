import { readFileSync } from 'node:fs';
import { measureRouteBytes } from '../../../bench/sections/browser-figures';
import { expect, test } from '../fixtures';

// The visitor path's size budgets (bench/budgets.json) fail CI, not only the bench's
// report. Sizes are deterministic for a build (times are not, and stay in the bench). Measured as
// the bench does: a cold visit's gzipped scripts and the HTML with its headers.

type Budget = { jsKb?: number; cssKb?: number; htmlKb?: number };
const budgets = JSON.parse(readFileSync(new URL('../../../bench/budgets.json', import.meta.url), 'utf8')) as {
  bundle: Record<string, Budget>;
};

for (const path of ['/', '/schedule', '/embed/schedule']) {
  test(`a visitor's ${path} stays within its size budget`, async ({ page, baseURL }, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'sizes do not depend on the width: measured once');
    const budget = budgets.bundle[path]!;
    const bytes = await measureRouteBytes(page, baseURL!, path);
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    const report = `${path}: JS ${kb(bytes.js)} KB (budget ${budget.jsKb}), HTML ${kb(bytes.html)} KB (budget ${budget.htmlKb})\n${bytes.listed.join('\n')}`;
    console.log(report);
    expect(kb(bytes.js), `JavaScript a visitor downloads for ${path}\n${report}`).toBeLessThanOrEqual(budget.jsKb!);
    expect(kb(bytes.html), `HTML with headers for ${path}\n${report}`).toBeLessThanOrEqual(budget.htmlKb!);
    expect(
      bytes.listed.some((line) => /supabase/i.test(line)),
      `no supabase-js chunk on ${path}\n${report}`,
    ).toBe(false);
  });
}
