// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { EARLY_CLICKS_GLOBAL } from '../src/app/early-clicks';
import { LOADER_SOURCE } from './hydrate-loader';

// The prerendered pages' inline loader before the app is live (decision 0014): the header's phone
// menu answers at once, any other button is held for the app to press again.

/** A page of its own per test (its document and window events), with the loader run on it. */
function pageWithLoader() {
  const doc = document.implementation.createHTMLDocument('page');
  doc.body.innerHTML = `
    <button type="button" aria-label="Menu" aria-expanded="false" aria-controls="menu-panel"><svg></svg></button>
    <nav id="menu-panel" aria-label="Main menu" hidden><a href="/schedule">Classes</a></nav>
    <button type="button">Contact Us</button>`;
  const win = Object.assign(new EventTarget(), { innerHeight: 800 });
  // The inline script as the page runs it, with this page as its window and document.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('window', 'document', LOADER_SOURCE)(win, doc);
  const [toggle, contact] = Array.from(doc.querySelectorAll('button'));
  const early = Reflect.get(win, EARLY_CLICKS_GLOBAL) as { targets: Element[]; hydrated: boolean };
  const seenBelow: string[] = [];
  doc.body.addEventListener('click', (event) => seenBelow.push((event.target as Element).textContent ?? ''));
  const press = (button: Element) => button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  return { toggle: toggle!, contact: contact!, panel: doc.getElementById('menu-panel')!, early, seenBelow, press };
}

describe('the prerendered pages’ loader', () => {
  it('opens and closes the phone menu at once, with aria-expanded saying which, and holds no press for the app', () => {
    const page = pageWithLoader();
    page.press(page.toggle);
    expect(page.toggle.getAttribute('aria-expanded')).toBe('true');
    expect(page.panel.hidden).toBe(false);
    page.press(page.toggle);
    expect(page.toggle.getAttribute('aria-expanded')).toBe('false');
    expect(page.panel.hidden).toBe(true);
    expect(page.early.targets, 'nothing for the app to press again').toEqual([]);
    expect(page.seenBelow, 'the app never sees the press').toEqual([]);
  });

  it('still holds any other button for the app to press once it is live', () => {
    const page = pageWithLoader();
    page.press(page.contact);
    expect(page.early.targets).toEqual([page.contact]);
    expect(page.toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('leaves the menu to the app once the app is live', () => {
    const page = pageWithLoader();
    page.early.hydrated = true;
    page.press(page.toggle);
    expect(page.toggle.getAttribute('aria-expanded')).toBe('false');
    expect(page.seenBelow).toHaveLength(1);
  });
});
