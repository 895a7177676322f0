import { describe, expect, it, vi } from 'vitest';
import { EARLY_CLICKS_GLOBAL, replayEarlyClicks } from './early-clicks';

function pageWithHeldPress(button: Element) {
  return { [EARLY_CLICKS_GLOBAL]: { targets: [button], hydrated: false } };
}

describe('presses held before hydration', () => {
  it('presses the held button again once, and marks the app live so the loader stops holding', () => {
    const button = document.body.appendChild(document.createElement('button'));
    const onClick = vi.fn();
    button.addEventListener('click', onClick);
    const page = pageWithHeldPress(button);
    replayEarlyClicks(page);
    replayEarlyClicks(page);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(page[EARLY_CLICKS_GLOBAL].hydrated).toBe(true);
  });

  it('skips a button that is no longer on the page', () => {
    const button = document.createElement('button');
    const onClick = vi.fn();
    button.addEventListener('click', onClick);
    replayEarlyClicks(pageWithHeldPress(button));
    expect(onClick).not.toHaveBeenCalled();
  });

  it('does nothing on a page without the loader', () => {
    expect(() => replayEarlyClicks({})).not.toThrow();
  });
});
