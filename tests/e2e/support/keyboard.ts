import type { Locator, Page } from 'playwright-core';
import { expect } from './expect';

/**
 * Moves focus with the Tab key alone until `target` has it (at most `maxTabs` presses), then
 * checks the focused element shows a visible focus indicator (outline or ring).
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 60): Promise<void> {
  const handle = await target.elementHandle();
  expect(handle, 'keyboard target not found');
  for (let i = 0; i < maxTabs; i++) {
    if (await handle.evaluate((el) => el === document.activeElement)) {
      const visible = await handle.evaluate((el) => {
        const s = getComputedStyle(el);
        const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
        const ring = s.boxShadow !== 'none' && s.boxShadow !== '';
        return outline || ring;
      });
      expect(visible, 'the focused element has no visible focus indicator (outline or ring)');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`focus did not reach the target within ${maxTabs} Tab presses`);
}
