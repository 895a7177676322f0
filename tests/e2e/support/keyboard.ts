import { expect, type Locator, type Page } from '@playwright/test';

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/**
 * Moves focus with the Tab key alone until `target` has it (at most `maxTabs` presses), then
 * checks the focused element shows a visible focus indicator (outline or ring).
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 60): Promise<void> {
  for (let presses = 0; !(await isFocused(target)); presses++) {
    if (presses === maxTabs) throw new Error(`focus did not reach the target within ${maxTabs} Tab presses`);
    await page.keyboard.press('Tab');
  }
  const indicator = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    const ring = s.boxShadow !== 'none' && s.boxShadow !== '';
    return outline || ring;
  });
  expect(indicator, 'the focused element shows a visible focus indicator (outline or ring)').toBe(true);
}
