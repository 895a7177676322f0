/**
 * A page whose app starts after `load` (scripts/prerender-routes.ts HYDRATE_AFTER_LOAD) shows its
 * buttons before React can answer them. The page's loader (scripts/prerender.ts) holds a press
 * made in that time under this global and starts the app; once the app has hydrated, it presses
 * the same button again, so the visitor's Contact Us still opens. A disclosure (the phone menu's
 * toggle) is not held: the loader opens and closes it itself (scripts/hydrate-loader.ts).
 */
export const EARLY_CLICKS_GLOBAL = '__studioEarlyClicks';

interface EarlyClicks {
  /** The last button pressed before hydration (a person's second press replaces the first). */
  targets: Element[];
  /** Set once the app is live: the loader stops holding presses. */
  hydrated: boolean;
}

/** Marks the app live and presses again the button the visitor pressed before it was. Runs once. */
export function replayEarlyClicks(target: object = window): void {
  const early = (target as Record<string, EarlyClicks | undefined>)[EARLY_CLICKS_GLOBAL];
  if (!early || early.hydrated) return;
  early.hydrated = true;
  for (const element of early.targets.splice(0)) {
    if (element.isConnected && element instanceof HTMLElement) element.click();
  }
}
