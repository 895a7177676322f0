import { useEffect } from 'react';
import { replayEarlyClicks } from './early-clicks';

/** Runs after the app's first commit, when every button on the page answers: presses held before then count. */
export function AfterHydration() {
  useEffect(() => replayEarlyClicks(), []);
  return null;
}
